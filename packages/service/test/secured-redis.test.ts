/**
 * A real worker service on a Redis that is secured as production runs it: TLS only (no plain port),
 * a certificate from a private CA, an ACL user as the only login (the default user is off). One node
 * always; a Redis Cluster of its own, secured the same way, in the cluster stage.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentRegistry } from '@switchboard/delegate';
import { sendMessageRequest, userMessage } from '@switchboard/protocol';
import { createRedisConnection, type RedisConnection } from '@switchboard/redis';
import { freePort, type GroupProcess, spawnGroup } from '@switchboard/test-processes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearerClient } from './support/bearer-client.ts';
import { serviceKeyEnv } from './support/service-keys.ts';
import { makeTestCertificates } from './support/test-certificates.ts';

const clusterScript = fileURLToPath(new URL('../../../scripts/redis-cluster.sh', import.meta.url));
const serviceScript = fileURLToPath(new URL('./support/worker-service-process.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'switchboard-secured-redis-'));
const USER = 'switchboard';
const PASSWORD = `pw-${randomUUID()}`;
const TOKEN = `cust-${randomUUID()}`;
const started: GroupProcess[] = [];
let certs: ReturnType<typeof makeTestCertificates>;

beforeAll(() => {
  certs = makeTestCertificates(join(dir, 'tls'));
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((child) => child.kill()));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function startWorker(env: Record<string, string>): GroupProcess {
  const worker = spawnGroup({
    args: [serviceScript],
    env: {
      PATH: process.env.PATH ?? '',
      SWITCHBOARD_SPAN_FILE: join(dir, 'spans.jsonl'),
      SWITCHBOARD_USER_TOKENS: `${TOKEN}=C001`,
      ...serviceKeyEnv('echo'),
      ...env,
    },
    name: 'the worker service',
  });
  started.push(worker);
  return worker;
}

/**
 * Starts the worker on `redisEnv` and checks what a user would: it gets ready, lists itself in the
 * registry, answers a message over HTTP and reads the task back from its store. The server takes no
 * other login and no plain connection, so each of these went over TLS as the ACL user.
 */
async function servesOn(redis: RedisConnection, redisEnv: Record<string, string>): Promise<void> {
  const namespace = `secured-${randomUUID().slice(0, 8)}`;
  const port = await freePort();
  const worker = startWorker({ ...redisEnv, PORT: String(port), SWITCHBOARD_NAMESPACE: namespace });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    const ended = await Promise.race([worker.exited, new Promise((resolve) => setTimeout(resolve, 100))]);
    expect(ended, worker.output()).toBeUndefined();
    if ((await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200) break;
  }
  expect((await fetch(`${url}/readyz`)).status, worker.output()).toBe(200);
  expect((await new AgentRegistry({ redis, namespace }).list()).map((entry) => entry.name)).toEqual(['echo']);

  const client = await bearerClient(url, TOKEN);
  const task = await client.sendMessage(
    sendMessageRequest({ message: userMessage({ text: 'Hello there' }) }),
  );
  if (!('status' in task)) throw new Error(`expected a task, got ${JSON.stringify(task)}`);
  // Read back from the task store on the secured Redis.
  const stored = await client.getTask({ tenant: '', id: task.id });
  expect(stored.status?.state).toBe(task.status?.state);

  expect(await worker.stop(), worker.output()).toBe(0);
}

// The cluster stage runs only the cluster's part; the main stage the one node's.
describe.skipIf(process.env.REDIS_CLUSTER_NODES)(
  'a worker service on one Redis node with TLS only and an ACL user',
  () => {
    let server: GroupProcess;
    let port: number;
    let redis: RedisConnection;

    beforeAll(async () => {
      port = await freePort();
      server = spawnGroup({
        command: 'redis-server',
        args: [
          '--bind',
          '127.0.0.1',
          '--port',
          '0',
          '--tls-port',
          String(port),
          '--tls-cert-file',
          certs.cert,
          '--tls-key-file',
          certs.key,
          '--tls-ca-cert-file',
          certs.ca,
          '--tls-auth-clients',
          'no',
          '--save',
          '',
          '--appendonly',
          'no',
          '--dir',
          dir,
          '--user',
          'default',
          'off',
          '--user',
          USER,
          'on',
          `>${PASSWORD}`,
          '~*',
          '&*',
          '+@all',
        ],
        name: 'the secured redis-server',
      });
      await server.waitForLine(/Ready to accept connections/, { describe: 'its ready line' });
      redis = createRedisConnection({
        url: `rediss://127.0.0.1:${port}`,
        tlsCa: readFileSync(certs.ca, 'utf8'),
        username: USER,
        password: PASSWORD,
      });
    }, 30_000);

    afterAll(async () => {
      redis?.disconnect();
      await server?.stop();
    });

    it('serves: ready, listed, answers a message and reads its task back', async () => {
      await servesOn(redis, {
        REDIS_URL: `rediss://127.0.0.1:${port}`,
        REDIS_TLS_CA_FILE: certs.ca,
        REDIS_USERNAME: USER,
        REDIS_PASSWORD: PASSWORD,
      });
    }, 60_000);

    it('a wrong password stops it at startup saying Redis refused the login, and never prints the password', async () => {
      const wrong = `wrong-${randomUUID()}`;
      const worker = startWorker({
        REDIS_URL: `rediss://127.0.0.1:${port}`,
        REDIS_TLS_CA_FILE: certs.ca,
        REDIS_USERNAME: USER,
        REDIS_PASSWORD: wrong,
      });
      expect(await worker.exited, worker.output()).toBe(2);
      expect(worker.output()).toContain(`Redis is not reachable at rediss://127.0.0.1:${port} (REDIS_URL)`);
      expect(worker.output()).toMatch(/WRONGPASS/);
      expect(worker.output()).not.toContain(wrong);
    }, 30_000);

    it('a certificate from a CA it was not given stops it at startup saying so', async () => {
      const worker = startWorker({
        REDIS_URL: `rediss://127.0.0.1:${port}`,
        REDIS_USERNAME: USER,
        REDIS_PASSWORD: PASSWORD,
      });
      expect(await worker.exited, worker.output()).toBe(2);
      expect(worker.output()).toMatch(
        /Redis is not reachable at rediss:.*: self-signed certificate in certificate chain\. Start it, or set .*REDIS_TLS_CA_FILE/,
      );
      expect(worker.output()).not.toContain('Unhandled error event');
    }, 30_000);
  },
);

describe.skipIf(!process.env.REDIS_CLUSTER_NODES)(
  'a worker service on a Redis Cluster with TLS only and an ACL user',
  () => {
    const clusterDir = join(dir, 'cluster');
    let nodes: string;
    let redis: RedisConnection;

    beforeAll(() => {
      nodes = execFileSync('bash', [clusterScript, 'start', clusterDir], {
        encoding: 'utf8',
        env: {
          ...process.env,
          REDIS_CLUSTER_TLS_DIR: join(dir, 'tls'),
          REDIS_CLUSTER_USER: USER,
          REDIS_CLUSTER_PASSWORD: PASSWORD,
        },
      }).trim();
      redis = createRedisConnection({
        clusterNodes: nodes,
        tls: true,
        tlsCa: readFileSync(certs.ca, 'utf8'),
        username: USER,
        password: PASSWORD,
      });
    }, 120_000);

    afterAll(() => {
      redis?.disconnect();
      execFileSync('bash', [clusterScript, 'stop', clusterDir]);
    }, 60_000);

    it('serves: ready, listed, answers a message and reads its task back', async () => {
      await servesOn(redis, {
        REDIS_CLUSTER_NODES: nodes,
        REDIS_TLS: 'true',
        REDIS_TLS_CA_FILE: certs.ca,
        REDIS_USERNAME: USER,
        REDIS_PASSWORD: PASSWORD,
      });
    }, 90_000);
  },
);
