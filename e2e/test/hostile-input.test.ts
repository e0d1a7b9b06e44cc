import { randomUUID } from 'node:crypto';
import { Task } from '@a2a-js/sdk';
import { serviceSigner } from '@switchboard/identity';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileRequests } from './support/hostile-requests.ts';
import { answerOf, sdkClient, textMessage } from './support/sdk-client.ts';
import { NO_CUSTOMER_LIMITS, startTestSystem, type TestSystem } from './support/system.ts';

let system: TestSystem;
beforeAll(async () => {
  // 500 requests from one customer test what each gets, not the rate limit (the flooding tests do).
  system = await startTestSystem({ env: NO_CUSTOMER_LIMITS });
});
afterAll(() => system?.stop());

/** JSON-RPC codes a bad request may get; -32603 (internal error) is not one of them. */
const PROPER = new Set([
  -32700, -32600, -32601, -32602, -32001, -32002, -32003, -32004, -32005, -32006, -32007, -32009,
]);

type RpcReply = {
  error?: { code: number; message: string };
  result?: { task?: { status?: { state?: string; message?: unknown } } };
};

/**
 * A proper answer to a bad request: a JSON-RPC error with its code, or (for a message the SDK reads
 * but our agent cannot act on, e.g. parts without text) a task rejected with a message saying why.
 */
function properAnswer(reply: RpcReply): string | undefined {
  if (reply.error) return PROPER.has(reply.error.code) ? `error ${reply.error.code}` : undefined;
  const status = reply.result?.task?.status;
  return status?.state === 'TASK_STATE_REJECTED' && status.message ? 'task rejected' : undefined;
}

async function everyServiceUp() {
  expect(system.exitedServices()).toEqual([]);
  for (const service of system.launched.services.values()) {
    expect((await fetch(`http://127.0.0.1:${service.port}/healthz`)).status).toBe(200);
  }
  const client = await sdkClient(system.launched.access.supervisorUrl, system.launched.access.token);
  const task = await client.sendMessage(textMessage('Is the blue kettle in stock?'));
  expect('status' in task ? answerOf(task) : '').toContain('Blue Enamel Kettle');
}

async function taskStoreIntact() {
  const keys = await system.redis.keys(`{${system.namespace}:*}:task:*`);
  let read = 0;
  for (const key of keys) {
    if ((await system.redis.type(key)) !== 'string') continue;
    const raw = (await system.redis.get(key)) ?? '';
    const task = Task.fromJSON(JSON.parse(raw));
    expect(task.id).not.toBe('');
    expect(task.status?.state).toBeDefined();
    read++;
  }
  return read;
}

describe('bad input at every door', () => {
  it('500 malformed or hostile JSON-RPC requests over HTTP: each gets its proper error, nothing falls over', async () => {
    const requests = hostileRequests(500);
    const { supervisorUrl, token } = system.launched.access;
    for (const request of requests) {
      const response = await fetch(`${supervisorUrl}/a2a/jsonrpc`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          'A2A-Version': '1.0',
        },
        body: request.body,
      });
      const text = await response.text();
      expect(response.status, `${request.kind}: ${text.slice(0, 200)}`).toBeLessThan(500);
      if (response.status === 413) {
        expect(request.kind).toBe('huge');
        continue;
      }
      const body = JSON.parse(text) as RpcReply;
      const answer = properAnswer(body);
      expect(answer, `${request.kind}: ${text.slice(0, 300)}`).toBeDefined();
      expect(body.error?.message ?? '').not.toMatch(/\n\s+at /);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await everyServiceUp();
    expect(await taskStoreIntact()).toBeGreaterThan(0);
  }, 120_000);

  it('500 over the queue: a bad request in a good envelope gets an error reply, a bad envelope fails its job unrun', async () => {
    const { namespace } = system;
    const prefix = `{${namespace}:orders}`;
    const queue = new Queue('a2a.orders', { connection: system.redis, prefix });
    const replyTo = `${prefix}:drill-replies:${randomUUID()}`;
    // Each job carries what the supervisor would send: its assertion, signed over that request's text.
    const { supervisor } = system.launched.access.serviceKeys;
    if (!supervisor) throw new Error('the launched system has no supervisor key');
    const signer = serviceSigner({ key: supervisor });
    const parameters = async (request: string) => ({
      authorization: `Bearer ${await signer.sign({ audience: 'orders', request })}`,
      'a2a-version': '1.0',
    });
    const requests = hostileRequests(450, { huge: false });
    const ids: string[] = [];
    for (const [n, request] of requests.entries()) {
      const requestId = `drill-${n}-${randomUUID()}`;
      ids.push(requestId);
      await queue.add(
        'SendMessage',
        {
          v: 1,
          requestId,
          replyTo,
          serviceParameters: await parameters(request.body.toString()),
          request: request.body.toString(),
        },
        { jobId: requestId },
      );
    }
    const badEnvelopes = [
      null,
      'a string',
      { v: 2, requestId: 'x', replyTo, serviceParameters: {}, request: '{}' },
      { v: 1, replyTo, serviceParameters: {}, request: '{}' },
      { v: 1, requestId: 'y', serviceParameters: {}, request: '{}' },
      { v: 1, requestId: 'z', replyTo, serviceParameters: 'none', request: '{}' },
      { v: 1, requestId: 'w', replyTo, serviceParameters: {}, request: { method: 'SendMessage' } },
      { v: 1, requestId: 'r'.repeat(1_000), replyTo, serviceParameters: {}, request: '{}' },
    ];
    const badIds: string[] = [];
    for (let n = 0; n < 50; n++) {
      const jobId = `drill-bad-${n}-${randomUUID()}`;
      badIds.push(jobId);
      await queue.add('SendMessage', badEnvelopes[n % badEnvelopes.length], { jobId });
    }
    const frames = new Map<string, string>();
    for (let attempt = 0; attempt < 240 && frames.size < ids.length; attempt++) {
      for (const [, fields] of await system.redis.xrange(replyTo, '-', '+')) {
        const map = new Map<string, string>();
        for (let i = 0; i + 1 < fields.length; i += 2) map.set(fields[i] ?? '', fields[i + 1] ?? '');
        if (map.get('k') === 'end') frames.set(map.get('rid') ?? '', map.get('b') ?? '');
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(frames.size).toBe(ids.length);
    for (const [n, id] of ids.entries()) {
      const body = JSON.parse(frames.get(id) ?? '{}') as RpcReply;
      expect(properAnswer(body), `${requests[n]?.kind}: ${frames.get(id)?.slice(0, 300)}`).toBeDefined();
    }
    for (let attempt = 0; attempt < 40; attempt++) {
      const failed = await queue.getFailed(0, 200);
      if (badIds.every((id) => failed.some((job) => job.id === id))) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const failed = await queue.getFailed(0, 200);
    for (const id of badIds) {
      const job = failed.find((entry) => entry.id === id);
      expect(job?.failedReason).toContain('Not a Switchboard A2A job envelope');
      expect(job?.attemptsMade).toBe(1);
    }
    await queue.close();
    await everyServiceUp();
    await taskStoreIntact();
  }, 180_000);
});
