import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where {@link makeTestCertificates} wrote its files (the names `scripts/redis-cluster.sh` reads). */
export interface TestCertificates {
  /** The private CA's certificate (PEM). */
  ca: string;
  /** The server's certificate, for 127.0.0.1 and localhost, signed by the CA. */
  cert: string;
  key: string;
}

/**
 * A private CA and a server certificate it signed for 127.0.0.1 and localhost, made with `openssl`
 * into `dir` (as `ca.crt`, `redis.crt`, `redis.key`), valid for a day.
 */
export function makeTestCertificates(dir: string): TestCertificates {
  mkdirSync(dir, { recursive: true });
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=switchboard-test-ca',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.crt'),
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=127.0.0.1',
    '-keyout',
    file('redis.key'),
    '-out',
    file('redis.csr'),
  );
  writeFileSync(file('san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    'x509',
    '-req',
    '-days',
    '1',
    '-in',
    file('redis.csr'),
    '-CA',
    file('ca.crt'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-extfile',
    file('san.ext'),
    '-out',
    file('redis.crt'),
  );
  return { ca: file('ca.crt'), cert: file('redis.crt'), key: file('redis.key') };
}
