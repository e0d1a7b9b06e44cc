import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SendMessageRequest } from '@a2a-js/sdk';
import { type Client, ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import {
  defaultQueueAddress,
  type JobEnvelope,
  QueueTransportFactory,
  ReplyInbox,
  type ServiceParametersHook,
} from '@switchboard/a2a-bullmq';
import { defineAgent, defineTool, type Principal, runAgent, silentLogger } from '@switchboard/agent';
import { MemoryLogger, ScriptedModel } from '@switchboard/agent/testing';
import { delegationTools, signQueuedRequests } from '@switchboard/delegate';
import {
  generateServiceKey,
  MemoryReplayGuard,
  RedisReplayGuard,
  readTrustedKeysSource,
  requestDigest,
  SERVICE_ASSERTION_TYPE,
  type ServiceKeySet,
  type ServicePrivateKey,
  serviceAssertionAuthenticator,
  serviceSigner,
  trustedKeys,
} from '@switchboard/identity';
import { createRedisConnection } from '@switchboard/redis';
import { Queue } from 'bullmq';
import { decodeJwt, decodeProtectedHeader, importJWK, SignJWT } from 'jose';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { A2A_HTTP_PATHS } from '../src/bindings/http/paths.ts';
import { type AgentHost, hostAgent } from '../src/index.ts';
import { send, userMessage } from './support/http-host.ts';

const redis = createRedisConnection({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });

const SUPERVISOR = generateServiceKey({ service: 'supervisor', label: 'k1' });
const ROTATED = generateServiceKey({ service: 'supervisor', label: 'k2' });
/** A key nobody trusts, under a kid nobody lists. */
const ROGUE = generateServiceKey({ service: 'supervisor', label: 'rogue' });
/** A key nobody trusts, under the trusted key's kid. */
const IMPOSTOR = generateServiceKey({ service: 'supervisor', label: 'k1' });
const CUSTOMER: Principal = { id: 'C001', kind: 'user', roles: ['vip'], via: [] };

/** The orders worker: one tool that says whom it runs for. */
function ordersAgent() {
  const seen: (Principal | undefined)[] = [];
  const whoami = defineTool({
    name: 'whoami',
    summary: 'Says whom the request is for.',
    whenToUse: 'Always.',
    input: z.object({}),
    risk: 'read',
    handler: (_input, { principal }) => {
      seen.push(principal);
      return { id: principal?.id ?? 'nobody' };
    },
  });
  const model = new ScriptedModel({
    turns: [],
    whenExhausted: (request) =>
      request.messages.at(-1)?.role === 'user'
        ? { toolCalls: [{ name: 'whoami', arguments: {} }] }
        : { text: 'orders answered' },
  });
  return {
    agent: defineAgent({ name: 'orders', instructions: 'Orders desk.', tools: [whoami] }),
    model,
    seen,
  };
}

let dir: string;
let keysFile: string;
let namespace: string;
let worker: AgentHost | undefined;
const closers: (() => Promise<unknown>)[] = [];

const writeTrusted = (keys: ServiceKeySet['keys']) => writeFile(keysFile, JSON.stringify({ keys }));

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sb-assertions-'));
  keysFile = join(dir, 'trusted-keys.json');
  namespace = `test-assert-${randomUUID().slice(0, 8)}`;
  await writeTrusted([SUPERVISOR.publicKey]);
});

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await worker?.close({ graceMs: 1_000 });
  worker = undefined;
  const keys = await redis.keys(`*${namespace}*`);
  if (keys.length > 0) await redis.del(...keys);
  await rm(dir, { recursive: true, force: true });
});

afterAll(() => redis.quit());

/** Starts the orders worker on its queue, trusting the keys in `keysFile` (read again on every use). */
async function startWorker() {
  const orders = ordersAgent();
  const logger = new MemoryLogger();
  const address = defaultQueueAddress('orders', namespace);
  worker = await hostAgent({
    agent: orders.agent,
    model: orders.model,
    queue: { redis, address },
    auth: {
      authenticators: [
        serviceAssertionAuthenticator({
          audience: 'orders',
          trustedKeys: trustedKeys({
            source: { kind: 'file', path: keysFile },
            reloadCooldownMs: 0,
            maxAgeMs: 0,
            logger,
          }),
          replay: new RedisReplayGuard({ redis, prefix: address.prefix }),
          delegators: ['supervisor'],
          logger,
        }),
      ],
    },
    logger,
  });
  await worker.start();
  const queue = new Queue(address.queue, { connection: redis, prefix: address.prefix });
  closers.push(() => queue.close());
  const refusals = () =>
    logger.entries
      .filter(
        (entry) =>
          entry.message === 'service assertion refused' || entry.message.startsWith('queued request refused'),
      )
      .map((entry) => entry.fields.reason);
  return { ...orders, card: worker.card, address, queue, refusals };
}

/** An SDK client of the worker over its queue, whose calls get the service parameters `hook` makes. */
async function queueClient(card: AgentHost['card'], hook?: ServiceParametersHook): Promise<Client> {
  const factory = new QueueTransportFactory({
    redis,
    timeoutMs: 10_000,
    namespace,
    ...(hook ? { serviceParameters: hook } : {}),
  });
  closers.push(() => factory.close());
  return new ClientFactory({ transports: [factory] }).createFromAgentCard(card);
}

/** The supervisor's side: delegation tools that sign for the principal, run by a scripted supervisor. */
async function delegateAs(
  card: AgentHost['card'],
  principal: Principal | undefined,
  key = SUPERVISOR.privateKey,
) {
  const client = await queueClient(card, signQueuedRequests);
  const tools = delegationTools({
    peers: [card],
    clientFor: () => client,
    signer: serviceSigner({ key }),
    timeoutMs: 10_000,
  });
  const [tool] = tools;
  const model = new ScriptedModel({
    turns: [
      { toolCalls: [{ name: tool?.name ?? '', arguments: { request: 'Who am I?' } }] },
      { text: 'done' },
    ],
  });
  const result = await runAgent({
    agent: defineAgent({ name: 'supervisor', instructions: 'Delegate.', tools }),
    model,
    input: 'Who am I?',
    ...(principal ? { principal } : {}),
    logger: silentLogger(),
  });
  return result.toolCalls[0];
}

/** A JWT signed with `key` by hand, for the claims a signer would never write. */
async function forge({
  key = SUPERVISOR.privateKey,
  iss = 'supervisor',
  aud = 'orders',
  request,
  iat = Math.floor(Date.now() / 1000),
  exp = iat + 60,
}: {
  key?: ServicePrivateKey;
  iss?: string;
  aud?: string;
  request: string;
  iat?: number;
  exp?: number;
}) {
  return new SignJWT({ kind: 'user', roles: [], via: [], request_sha256: requestDigest(request) })
    .setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: SERVICE_ASSERTION_TYPE })
    .setIssuer(iss)
    .setAudience(aud)
    .setSubject('C001')
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(await importJWK(key, 'EdDSA'));
}

/** The jobs sent to a queue, whatever their state (a reply is written before its job is marked completed). */
const sentJobs = (queue: Queue) => queue.getJobs(['completed', 'active', 'waiting']);

const bearer = (jws: string) => ({ authorization: `Bearer ${jws}` });
const ask = (text: string) => send(userMessage(text));

async function refused(client: Client, text = 'Who am I?') {
  const error = await client.sendMessage(ask(text)).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, 'the request should have been refused').toBeInstanceOf(Error);
  return (error as Error).message;
}

describe('a delegation signed for the end user', () => {
  it('reaches the worker, whose tool runs as the customer via the supervisor', async () => {
    const orders = await startWorker();
    const call = await delegateAs(orders.card, CUSTOMER);
    expect(call?.status).toBe('succeeded');
    expect(orders.seen).toEqual([{ ...CUSTOMER, via: ['supervisor'] }]);
  });

  it('with no end user, the supervisor acts on its own account', async () => {
    const orders = await startWorker();
    await delegateAs(orders.card, undefined);
    expect(orders.seen).toEqual([{ id: 'supervisor', kind: 'service', roles: [], via: [] }]);
  });

  it('leaves nothing reusable in the job hash: an assertion bound to that request, no static token', async () => {
    const orders = await startWorker();
    await delegateAs(orders.card, CUSTOMER);
    const [job] = await sentJobs(orders.queue);
    const hash = await redis.hgetall(`${orders.address.prefix}:${orders.address.queue}:${job?.id}`);
    const envelope = JSON.parse(hash.data ?? '{}') as JobEnvelope;
    const jws = /^Bearer (\S+)$/.exec(envelope.serviceParameters.authorization ?? '')?.[1] ?? '';
    expect(decodeProtectedHeader(jws)).toMatchObject({ typ: SERVICE_ASSERTION_TYPE, kid: 'supervisor:k1' });
    const claims = decodeJwt(jws);
    expect(claims).toMatchObject({
      iss: 'supervisor',
      aud: 'orders',
      sub: 'C001',
      kind: 'user',
      request_sha256: requestDigest(envelope.request),
    });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBeLessThanOrEqual(10);
    expect(Object.keys(envelope.serviceParameters).sort()).toEqual(['a2a-version', 'authorization']);
    expect(JSON.stringify(hash)).not.toContain(SUPERVISOR.privateKey.d);
  });
});

describe('a queued request the worker refuses, running nothing', () => {
  it('without an assertion', async () => {
    const orders = await startWorker();
    expect(await refused(await queueClient(orders.card))).toContain('Unauthenticated');
    expect(orders.refusals()).toEqual(['no authorization']);
    expect(orders.model.callCount).toBe(0);
  });

  it('signed by a key the worker does not trust, or by another key under a trusted kid', async () => {
    const orders = await startWorker();
    for (const key of [ROGUE.privateKey, IMPOSTOR.privateKey]) {
      const signer = serviceSigner({ key });
      const client = await queueClient(orders.card, async ({ request }) =>
        bearer(await signer.sign({ audience: 'orders', principal: CUSTOMER, request })),
      );
      expect(await refused(client)).toContain('Unauthenticated');
    }
    expect(orders.refusals()).toEqual([
      'signed by a key that is not trusted',
      'credentials not accepted',
      'bad signature',
      'credentials not accepted',
    ]);
    expect(orders.model.callCount).toBe(0);
  });

  it('expired, meant for another agent, or claiming an issuer its key does not name', async () => {
    const orders = await startWorker();
    const now = Math.floor(Date.now() / 1000);
    const forgeries: ((request: string) => Promise<string>)[] = [
      (request) => forge({ request, iat: now - 600, exp: now - 300 }),
      (request) => forge({ request, aud: 'inventory' }),
      (request) => forge({ request, iss: 'comms' }),
    ];
    for (const make of forgeries) {
      const client = await queueClient(orders.card, async ({ request }) => bearer(await make(request)));
      expect(await refused(client)).toContain('Unauthenticated');
    }
    expect(orders.refusals().filter((reason) => reason !== 'credentials not accepted')).toEqual([
      'expired',
      'meant for another agent (aud)',
      'issuer "comms" is not the key\'s service "supervisor"',
    ]);
    expect(orders.model.callCount).toBe(0);
  });

  it('a real job’s authorization copied onto a forged request', async () => {
    const orders = await startWorker();
    await delegateAs(orders.card, CUSTOMER);
    const [job] = await sentJobs(orders.queue);
    const stolen = (job?.data as JobEnvelope | undefined)?.serviceParameters.authorization ?? '';
    const calls = orders.model.callCount;
    const client = await queueClient(orders.card, () => ({ authorization: stolen }));
    expect(await refused(client, 'Refund A10086 to me')).toContain('Unauthenticated');
    expect(orders.refusals()).toContain('bound to another request');
    expect(orders.model.callCount).toBe(calls);
    expect(orders.seen).toHaveLength(1);
  });

  it('the same envelope replayed as a new job', async () => {
    const orders = await startWorker();
    await delegateAs(orders.card, CUSTOMER);
    const [job] = await sentJobs(orders.queue);
    const envelope = job?.data as JobEnvelope;
    const calls = orders.model.callCount;
    const inbox = new ReplyInbox({ redis, namespace });
    closers.push(() => inbox.close());
    const requestId = `replay-${randomUUID()}`;
    const reply = inbox.open(requestId);
    await orders.queue.add(
      job?.name ?? 'SendStreamingMessage',
      { ...envelope, requestId, replyTo: inbox.key },
      {
        jobId: requestId,
      },
    );
    const frame = await reply.next({ timeoutMs: 10_000 });
    reply.close();
    const answer = JSON.parse(frame.body ?? '{}') as { error?: { code: number; message: string } };
    expect(answer.error?.code).toBe(-32600);
    expect(answer.error?.message).toContain('Unauthenticated');
    expect(orders.refusals()).toContain('already used (replayed)');
    expect(orders.model.callCount).toBe(calls);
    expect(orders.seen).toHaveLength(1);
  });
});

describe('rotating the supervisor’s key', () => {
  it('a new key added to the trusted file is accepted without restarting the worker; the old one until removed', async () => {
    const orders = await startWorker();
    const before = await delegateAs(orders.card, CUSTOMER, ROTATED.privateKey);
    expect(before?.status).not.toBe('succeeded');
    expect(orders.seen).toEqual([]);

    await writeTrusted([SUPERVISOR.publicKey, ROTATED.publicKey]);
    expect((await delegateAs(orders.card, CUSTOMER, ROTATED.privateKey))?.status).toBe('succeeded');
    expect((await delegateAs(orders.card, CUSTOMER, SUPERVISOR.privateKey))?.status).toBe('succeeded');

    await writeTrusted([ROTATED.publicKey]);
    expect((await delegateAs(orders.card, CUSTOMER, SUPERVISOR.privateKey))?.status).not.toBe('succeeded');
    expect(orders.seen).toHaveLength(2);
  });
});

describe('the assertion authenticator', () => {
  const inline = () => trustedKeys({ source: { kind: 'inline', keySet: { keys: [SUPERVISOR.publicKey] } } });
  const signer = serviceSigner({ key: SUPERVISOR.privateKey });
  const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: {} });

  it('accepts the same job redelivered (same job id), refuses it under another job id', async () => {
    const authenticate = serviceAssertionAuthenticator({
      audience: 'orders',
      trustedKeys: inline(),
      replay: new RedisReplayGuard({ redis, prefix: `{${namespace}:orders}` }),
      delegators: ['supervisor'],
      logger: silentLogger(),
    });
    const jws = await signer.sign({ audience: 'orders', principal: CUSTOMER, request });
    const presented = { authorization: `Bearer ${jws}`, body: request };
    const expected = { ...CUSTOMER, via: ['supervisor'] };
    expect(await authenticate({ ...presented, jobId: 'job-1' })).toEqual(expected);
    expect(await authenticate({ ...presented, jobId: 'job-1' })).toEqual(expected);
    expect(await authenticate({ ...presented, jobId: 'job-2' })).toBeUndefined();
  });

  it('verifies an assertion of a 0.2 peer, whose end user has the kind "customer", as a user; signs "user"', async () => {
    const authenticate = serviceAssertionAuthenticator({
      audience: 'orders',
      trustedKeys: inline(),
      replay: new MemoryReplayGuard(),
      delegators: ['supervisor'],
      logger: silentLogger(),
    });
    const old = await new SignJWT({ kind: 'customer', roles: ['vip'], via: [] })
      .setProtectedHeader({ alg: 'EdDSA', kid: SUPERVISOR.privateKey.kid, typ: SERVICE_ASSERTION_TYPE })
      .setIssuer('supervisor')
      .setAudience('orders')
      .setSubject('C001')
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(await importJWK(SUPERVISOR.privateKey, 'EdDSA'));
    expect(await authenticate({ authorization: `Bearer ${old}` })).toEqual({
      id: 'C001',
      kind: 'user',
      roles: ['vip'],
      via: ['supervisor'],
    });
    const fresh = await signer.sign({ audience: 'orders', principal: CUSTOMER });
    expect(decodeJwt(fresh).kind).toBe('user');
  });

  it('over HTTP: an unbound assertion once, never a queued one; over the queue never an unbound one', async () => {
    const logger = new MemoryLogger();
    const authenticate = serviceAssertionAuthenticator({
      audience: 'orders',
      trustedKeys: inline(),
      replay: new MemoryReplayGuard(),
      delegators: ['supervisor'],
      logger,
    });
    const unbound = `Bearer ${await signer.sign({ audience: 'orders', principal: CUSTOMER })}`;
    const bound = `Bearer ${await signer.sign({ audience: 'orders', principal: CUSTOMER, request })}`;
    expect(await authenticate({ authorization: unbound })).toMatchObject({ id: 'C001', via: ['supervisor'] });
    expect(await authenticate({ authorization: unbound })).toBeUndefined();
    expect(await authenticate({ authorization: bound })).toBeUndefined();
    const fresh = `Bearer ${await signer.sign({ audience: 'orders', principal: CUSTOMER })}`;
    expect(await authenticate({ authorization: fresh, body: request, jobId: 'job-1' })).toBeUndefined();
    expect(logger.entries.map((entry) => entry.fields.reason)).toEqual([
      'already used (replayed)',
      'bound to a queued request, presented over HTTP',
      'not bound to the request it came with',
    ]);
  });

  it('lets only the delegators act for someone else: a worker’s trusted key proves the worker alone', async () => {
    const INVENTORY = generateServiceKey({ service: 'inventory', label: 'k1' });
    const logger = new MemoryLogger();
    const authenticate = serviceAssertionAuthenticator({
      audience: 'orders',
      trustedKeys: trustedKeys({
        source: { kind: 'inline', keySet: { keys: [SUPERVISOR.publicKey, INVENTORY.publicKey] } },
      }),
      replay: new MemoryReplayGuard(),
      delegators: ['supervisor'],
      logger,
    });
    const inventory = serviceSigner({ key: INVENTORY.privateKey });
    const operator: Principal = { id: 'ada', kind: 'operator', roles: [], via: [] };
    for (const principal of [CUSTOMER, operator]) {
      const authorization = `Bearer ${await inventory.sign({ audience: 'orders', principal })}`;
      expect(await authenticate({ authorization })).toBeUndefined();
    }
    expect(logger.entries.map((entry) => entry.fields.reason)).toEqual([
      '"inventory" may not act for someone else (not one of the delegators)',
      '"inventory" may not act for someone else (not one of the delegators)',
    ]);
    const itself = `Bearer ${await inventory.sign({ audience: 'orders' })}`;
    expect(await authenticate({ authorization: itself })).toEqual({
      id: 'inventory',
      kind: 'service',
      roles: [],
      via: [],
    });
    const forCustomer = `Bearer ${await signer.sign({ audience: 'orders', principal: CUSTOMER })}`;
    expect(await authenticate({ authorization: forCustomer })).toEqual({ ...CUSTOMER, via: ['supervisor'] });
  });

  it('leaves other bearer tokens to other authenticators, without a word', async () => {
    const logger = new MemoryLogger();
    const authenticate = serviceAssertionAuthenticator({
      audience: 'orders',
      trustedKeys: inline(),
      replay: new MemoryReplayGuard(),
      delegators: ['supervisor'],
      logger,
    });
    const otherJwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'EdDSA', kid: 'idp-1' })
      .setSubject('C001')
      .sign(await importJWK(ROGUE.privateKey, 'EdDSA'));
    for (const authorization of [undefined, 'Bearer static-token-0123456789', `Bearer ${otherJwt}`]) {
      expect(await authenticate({ authorization })).toBeUndefined();
    }
    expect(logger.entries).toEqual([]);
  });
});

describe('trusted keys served from a URL', () => {
  it('verifies with the keys served there, and a key added there counts without a restart', async () => {
    let served: ServiceKeySet = { keys: [SUPERVISOR.publicKey] };
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(served));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    const { port } = server.address() as AddressInfo;
    const source = readTrustedKeysSource(`http://127.0.0.1:${port}/jwks.json`);
    if (!source.ok) throw new Error(source.problems.join('; '));
    const keys = trustedKeys({ source: source.source, reloadCooldownMs: 0 });
    expect(await keys.keySet()).toEqual(served);
    const authenticate = serviceAssertionAuthenticator({
      audience: 'orders',
      trustedKeys: keys,
      replay: new MemoryReplayGuard(),
      delegators: ['supervisor'],
      logger: silentLogger(),
    });
    const signedBy = async (key: ServicePrivateKey) =>
      authenticate({ authorization: `Bearer ${await serviceSigner({ key }).sign({ audience: 'orders' })}` });
    expect(await signedBy(SUPERVISOR.privateKey)).toMatchObject({ id: 'supervisor', kind: 'service' });
    expect(await signedBy(ROTATED.privateKey)).toBeUndefined();
    served = { keys: [SUPERVISOR.publicKey, ROTATED.publicKey] };
    expect(await signedBy(ROTATED.privateKey)).toMatchObject({ id: 'supervisor', kind: 'service' });
    expect(readTrustedKeysSource('http://keys.example.com/jwks.json').ok).toBe(false);
  });
});

describe('a delegation over HTTP', () => {
  it('carries an assertion bound to the audience that works once: the same header replayed gets 401', async () => {
    const orders = ordersAgent();
    worker = await hostAgent({
      agent: orders.agent,
      model: orders.model,
      http: {},
      auth: {
        authenticators: [
          serviceAssertionAuthenticator({
            audience: 'orders',
            trustedKeys: trustedKeys({
              source: { kind: 'inline', keySet: { keys: [SUPERVISOR.publicKey] } },
            }),
            replay: new MemoryReplayGuard(),
            delegators: ['supervisor'],
            logger: silentLogger(),
          }),
        ],
      },
      logger: silentLogger(),
    });
    await worker.start();
    const sent: string[] = [];
    const recording: typeof fetch = (input, init) => {
      const authorization = new Headers(init?.headers).get('authorization');
      if (authorization) sent.push(authorization);
      return fetch(input, init);
    };
    const client = await new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl: recording })],
    }).createFromAgentCard(worker.card);
    const tools = delegationTools({
      peers: [worker.card],
      clientFor: () => client,
      signer: serviceSigner({ key: SUPERVISOR.privateKey }),
    });
    const result = await runAgent({
      agent: defineAgent({ name: 'supervisor', instructions: 'Delegate.', tools }),
      model: new ScriptedModel({
        turns: [
          { toolCalls: [{ name: tools[0]?.name ?? '', arguments: { request: 'Who am I?' } }] },
          { text: 'ok' },
        ],
      }),
      input: 'Who am I?',
      principal: CUSTOMER,
      logger: silentLogger(),
    });
    expect(result.toolCalls[0]?.status).toBe('succeeded');
    expect(orders.seen).toEqual([{ ...CUSTOMER, via: ['supervisor'] }]);
    const [header] = sent;
    expect(decodeJwt(header?.slice('Bearer '.length) ?? '')).not.toHaveProperty('request_sha256');
    const replay = await fetch(`${worker.url}${A2A_HTTP_PATHS.jsonRpc}`, {
      method: 'POST',
      headers: { authorization: header ?? '', 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: SendMessageRequest.toJSON(ask('Refund me')),
      }),
    });
    expect(replay.status).toBe(401);
    expect(orders.seen).toHaveLength(1);
  });
});
