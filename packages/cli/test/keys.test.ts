import { silentLogger } from '@switchboard/agent';
import {
  MemoryReplayGuard,
  readServiceKey,
  serviceAssertionAuthenticator,
  serviceSigner,
  trustedKeys,
} from '@switchboard/identity';
import { describe, expect, it } from 'vitest';
import { hasStack, switchboard } from './support.ts';

describe('switchboard keys generate', () => {
  it('prints a service’s private key and its public key, which verifies what the private one signs', async () => {
    const run = await switchboard(['keys', 'generate', '--service', 'orders', '--label', '2026-05']);
    expect(run.code).toBe(0);
    const [privateLine, publicLine] = run.stdout.split('\n').filter((line) => line.startsWith('{'));
    const read = readServiceKey({ json: privateLine ?? '', service: 'orders' });
    if (!read.ok) throw new Error(read.problems.join('; '));
    expect(read.key.kid).toBe('orders:2026-05');
    const publicKey = JSON.parse(publicLine ?? '{}');
    expect(publicKey).toEqual({
      kty: 'OKP',
      crv: 'Ed25519',
      x: read.key.x,
      kid: 'orders:2026-05',
      alg: 'EdDSA',
      use: 'sig',
    });
    expect(run.stdout).toContain('SWITCHBOARD_SERVICE_KEY');
    expect(run.stderr).toContain('To rotate');

    const authenticate = serviceAssertionAuthenticator({
      audience: 'inventory',
      trustedKeys: trustedKeys({ source: { kind: 'inline', keySet: { keys: [publicKey] } } }),
      replay: new MemoryReplayGuard(),
      delegators: ['supervisor'],
      logger: silentLogger(),
    });
    const jws = await serviceSigner({ key: read.key }).sign({ audience: 'inventory' });
    expect(await authenticate({ authorization: `Bearer ${jws}` })).toEqual({
      id: 'orders',
      kind: 'service',
      roles: [],
      via: [],
    });
  });

  it('--json prints both keys as one line; each run makes a new key', async () => {
    const first = await switchboard(['keys', 'generate', '--service', 'comms', '--json']);
    const second = await switchboard(['keys', 'generate', '--service', 'comms', '--json']);
    const a = JSON.parse(first.stdout);
    const b = JSON.parse(second.stdout);
    expect(a.privateKey.kid).toMatch(/^comms:\d{4}-\d{2}-\d{2}$/);
    expect(a.publicKey).not.toHaveProperty('d');
    expect(a.privateKey.d).not.toBe(b.privateKey.d);
  });

  it('refuses a name that is not a service name, saying what one looks like', async () => {
    const run = await switchboard(['keys', 'generate', '--service', 'Orders Desk']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not a service name');
    expect(hasStack(run.stderr)).toBe(false);
    const missing = await switchboard(['keys', 'generate']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--service');
  });
});
