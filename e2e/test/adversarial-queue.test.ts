import { randomBytes } from 'node:crypto';
import type { Principal } from '@switchboard/agent';
import { generateServiceKey, serviceSigner } from '@switchboard/identity';
import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expiredAssertion,
  type JobInput,
  sendMessageText,
  type WorkerQueue,
  workerQueue,
} from './support/queue-jobs.ts';
import { answerOf, sdkClient, textMessage } from './support/sdk-client.ts';
import { type ShopSnapshot, shopSnapshot } from './support/shop-snapshot.ts';
import { startTestSystem, type TestSystem } from './support/system.ts';

// Someone who can write to Redis adds jobs straight into the orders worker's queue, to act as
// customer C002 without C002's credential. Every such job is answered with an A2A error, starts no
// task, and leaves the shop as it was.

let system: TestSystem;
let orders: WorkerQueue;
let shopBefore: ShopSnapshot;

const C002: Principal = { id: 'C002', kind: 'user', roles: [], via: [] };

/** What every forged job asks for: a write that needs no approval, so it would show at once. */
const HIJACK = sendMessageText(
  'Change the shipping address of order A10087 to name: "Mallory Evil", street: "1 Evil Street", postcode: "10115", city: "Berlin", country: "DE"',
);

const UNAUTHENTICATED = 'Unauthenticated: the authorization service parameter is missing or not valid.';

beforeAll(async () => {
  system = await startTestSystem();
  orders = workerQueue(system, 'orders');
  shopBefore = await shopSnapshot(system.store);
});
afterAll(async () => {
  await orders?.close();
  await system?.stop();
});

/** The supervisor's private signing key, which every worker trusts. */
function supervisorKey() {
  const key = system.launched.access.serviceKeys.supervisor;
  if (!key) throw new Error('the system has no supervisor key');
  return key;
}

/**
 * A real job of the orders worker: C002 asks the supervisor about its order, and the job that
 * carried the question (with the supervisor's assertion for C002, minted for it) is read back from
 * Redis, as anyone with access to Redis could.
 */
async function capturedJob(): Promise<Job> {
  const seen = new Set((await orders.finished()).map((job) => job.id));
  const grace = await sdkClient(
    system.launched.access.supervisorUrl,
    system.launched.access.users.C002 ?? '',
  );
  const answered = await grace.sendMessage(textMessage('Where is my order A10087?'));
  expect('status' in answered ? answerOf(answered) : '').toContain('Lyon');
  const job = (await orders.finished()).find((finished) => !seen.has(finished.id));
  if (!job) throw new Error('the delegation left no finished job on the orders queue');
  // Still within its assertion's minute: what refuses it below is not its age.
  expect(Date.now() - (job.finishedOn ?? 0)).toBeLessThan(30_000);
  return job;
}

/** Sends `job` and expects it refused as unauthenticated, with no task started and the shop unchanged. */
async function expectRefused(job: JobInput) {
  const tasks = await orders.taskIds();
  const reply = await orders.send(job);
  expect(reply.error).toEqual({ code: -32600, message: UNAUTHENTICATED });
  expect(reply.result).toBeUndefined();
  expect(await orders.taskIds()).toEqual(tasks);
  expect(await shopSnapshot(system.store)).toEqual(shopBefore);
}

describe('jobs written straight into the orders queue', () => {
  it("a job with the supervisor's own assertion for C002 does change C002's address: what the forged jobs below try", async () => {
    const request = sendMessageText(
      'Change the shipping address of order A10095 to name: "Grace Hopper", street: "1 New Street", postcode: "69003", city: "Lyon", country: "FR"',
    );
    const assertion = await serviceSigner({ key: supervisorKey() }).sign({
      audience: 'orders',
      principal: C002,
      request,
    });
    const reply = await orders.send({ request, authorization: `Bearer ${assertion}` });
    expect(reply.error).toBeUndefined();
    expect(JSON.stringify(reply.result)).toContain('updated: yes');
    expect((await system.store.getOrder('A10095'))?.shippingAddress.street).toBe('1 New Street');
    shopBefore = await shopSnapshot(system.store);
  });

  it('a job without authorization is refused', async () => {
    await expectRefused({ request: HIJACK });
  });

  it('a job with a made-up bearer token is refused', async () => {
    await expectRefused({ request: HIJACK, authorization: `Bearer ${randomBytes(32).toString('hex')}` });
  });

  it("a job with C002's own sign-in token, or the operator's, is refused: the queue takes only services' assertions", async () => {
    const { users: customers, adminToken } = system.launched.access;
    await expectRefused({ request: HIJACK, authorization: `Bearer ${customers.C002}` });
    await expectRefused({ request: HIJACK, authorization: `Bearer ${adminToken}` });
  });

  it("a real job's authorization attached to another request is refused: it is bound to the request it came with", async () => {
    const job = await capturedJob();
    await expectRefused({ request: HIJACK, authorization: job.data.serviceParameters.authorization });
  });

  it('a real job copied into a new job is refused: its assertion was used once already', async () => {
    const job = await capturedJob();
    await expectRefused({
      request: job.data.request,
      authorization: job.data.serviceParameters.authorization,
    });
  });

  it('a real job deleted and added again under its own id runs nothing again', async () => {
    const job = await capturedJob();
    const tasks = await orders.taskIds();
    await orders.queue.remove(job.id ?? '');
    const reply = await orders.send({
      request: job.data.request,
      authorization: job.data.serviceParameters.authorization,
      jobId: job.id ?? '',
    });
    // The message was handled once already: its task is answered again, no new one starts.
    const answered = (reply.result as { task?: { id?: string } } | undefined)?.task?.id;
    if (answered !== undefined) expect(tasks).toContain(answered);
    expect(await orders.taskIds()).toEqual(tasks);
    expect(await shopSnapshot(system.store)).toEqual(shopBefore);
  });

  it('an assertion signed by a key the workers do not trust (kid supervisor:evil) is refused', async () => {
    const { privateKey } = generateServiceKey({ service: 'supervisor', label: 'evil' });
    const assertion = await serviceSigner({ key: privateKey }).sign({
      audience: 'orders',
      principal: C002,
      request: HIJACK,
    });
    await expectRefused({ request: HIJACK, authorization: `Bearer ${assertion}` });
  });

  it("an expired assertion, though signed with the supervisor's trusted key, is refused", async () => {
    const assertion = expiredAssertion({
      key: supervisorKey(),
      audience: 'orders',
      principal: C002,
      request: HIJACK,
    });
    await expectRefused({ request: HIJACK, authorization: `Bearer ${assertion}` });
  });

  it('an assertion the supervisor signed for another worker is refused by the orders worker', async () => {
    const assertion = await serviceSigner({ key: supervisorKey() }).sign({
      audience: 'inventory',
      principal: C002,
      request: HIJACK,
    });
    await expectRefused({ request: HIJACK, authorization: `Bearer ${assertion}` });
  });

  it('a worker’s own trusted key cannot speak for a customer or an operator: only the supervisor delegates', async () => {
    for (const worker of ['inventory', 'comms'] as const) {
      const key = system.launched.access.serviceKeys[worker];
      if (!key) throw new Error(`the system has no ${worker} key`);
      for (const principal of [C002, { id: 'operator', kind: 'operator' as const, roles: [], via: [] }]) {
        const assertion = await serviceSigner({ key }).sign({
          audience: 'orders',
          principal,
          request: HIJACK,
        });
        await expectRefused({ request: HIJACK, authorization: `Bearer ${assertion}` });
      }
    }
  });
});

describe('what the jobs in Redis hold', () => {
  it('no job the system queued holds a token anyone signs in with, and no authorization a job holds works for a new request', async () => {
    const { supervisorUrl, users: customers, adminToken, token } = system.launched.access;
    for (const [customer, text] of [
      ['C001', 'Where is my order A10086?'],
      ['C001', 'Is the blue kettle in stock?'],
      ['C002', 'Send the customer of order A10087 an apology email.'],
    ] as const) {
      const client = await sdkClient(supervisorUrl, customers[customer] ?? '');
      await client.sendMessage(textMessage(text));
    }
    const admin = await sdkClient(supervisorUrl, adminToken);
    await admin.sendMessage(textMessage('Where is my order A10087?'));

    const secrets = [token, adminToken, ...Object.values(customers)];
    const authorizations: string[] = [];
    for (const agent of ['orders', 'inventory', 'comms']) {
      const keys = await system.redis.keys(`{${system.namespace}:${agent}}:a2a.${agent}:*`);
      let jobs = 0;
      for (const key of keys) {
        if ((await system.redis.type(key)) !== 'hash') continue;
        const fields = await system.redis.hgetall(key);
        if (fields.data === undefined || orders.added.has(key.slice(key.lastIndexOf(':') + 1))) continue;
        jobs++;
        const stored = Object.values(fields).join('\n');
        for (const secret of secrets) expect(stored, `${key} holds a sign-in token`).not.toContain(secret);
        const { serviceParameters } = JSON.parse(fields.data) as {
          serviceParameters: Record<string, string>;
        };
        if (serviceParameters.authorization) authorizations.push(serviceParameters.authorization);
      }
      expect(jobs, `jobs of ${agent} in Redis`).toBeGreaterThan(0);
    }
    expect(authorizations.length).toBeGreaterThanOrEqual(5);

    for (const authorization of new Set(authorizations))
      await expectRefused({ request: HIJACK, authorization });
  });
});

describe('what Redis holds', () => {
  /** Every value of a key, whatever its type, as text. */
  async function valuesOf(key: string): Promise<string> {
    const { redis } = system;
    switch (await redis.type(key)) {
      case 'string':
        return (await redis.get(key)) ?? '';
      case 'hash':
        return Object.entries(await redis.hgetall(key))
          .flat()
          .join('\n');
      case 'list':
        return (await redis.lrange(key, 0, -1)).join('\n');
      case 'set':
        return (await redis.smembers(key)).join('\n');
      case 'zset':
        return (await redis.zrange(key, '0', '-1')).join('\n');
      case 'stream':
        return (await redis.xrange(key, '-', '+')).map(([, fields]) => fields.join('\n')).join('\n');
      default:
        return '';
    }
  }

  it('no key of the system, of any service, holds a token anyone signs in with', async () => {
    const { users: customers, adminToken, token } = system.launched.access;
    const secrets = [token, adminToken, ...Object.values(customers)];
    const written = (key: string) => orders.added.has(key.slice(key.lastIndexOf(':') + 1));
    const keys = (await system.redis.keys(`*${system.namespace}*`)).filter((key) => !written(key));
    expect(keys.length).toBeGreaterThan(50);
    for (const key of keys) {
      const stored = await valuesOf(key);
      for (const secret of secrets) expect(stored, `${key} holds a sign-in token`).not.toContain(secret);
    }
  });
});
