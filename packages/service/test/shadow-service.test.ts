import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sendMessageRequest, userMessage } from '@switchboard/protocol';
import { type ShadowPair, ShadowPairStore } from '@switchboard/shadow';
import { freePort, type GroupProcess, spawnGroup } from '@switchboard/test-processes';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { bearerClient } from './support/bearer-client.ts';
import { serviceKeyEnv } from './support/service-keys.ts';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
const workdir = mkdtempSync(join(tmpdir(), 'switchboard-shadow-service-'));
const script = fileURLToPath(new URL('./support/worker-service-process.ts', import.meta.url));
const started: GroupProcess[] = [];
const namespaces: string[] = [];
const TOKEN = `cust-${randomUUID()}`;

afterEach(async () => {
  await Promise.all(started.splice(0).map((child) => child.kill()));
});
afterAll(async () => {
  for (const namespace of namespaces) {
    const keys = await redis.keys(`*${namespace}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis.quit();
  rmSync(workdir, { recursive: true, force: true });
});

function startWorker(env: Record<string, string>): GroupProcess {
  const worker = spawnGroup({
    args: [script],
    env: { PATH: process.env.PATH ?? '', SWITCHBOARD_SPAN_FILE: join(workdir, 'spans.jsonl'), ...env },
    name: 'the worker service',
  });
  started.push(worker);
  return worker;
}

describe('a service with a shadow (<AGENT>_SHADOW_*)', () => {
  it('does not start with a wrong shadow setting, naming the variable and the fix', async () => {
    const worker = startWorker({
      REDIS_URL: redisUrl,
      ECHO_SHADOW_CANDIDATE: 'prompt-v2',
      ECHO_SHADOW_SHARE: 'half',
      ...serviceKeyEnv('echo'),
    });
    expect(await worker.exited, worker.output()).toBe(2);
    expect(worker.output()).toContain('The echo service cannot start; fix its environment:');
    expect(worker.output()).toContain('ECHO_SHADOW_SHARE: must be a share from 0 to 1 or a percentage');
  });

  it('answers from the live agent and records each request’s pair with the shadow’s side', async () => {
    const namespace = `shadow-${randomUUID().slice(0, 8)}`;
    namespaces.push(namespace);
    const port = await freePort();
    const worker = startWorker({
      REDIS_URL: redisUrl,
      PORT: String(port),
      SWITCHBOARD_NAMESPACE: namespace,
      SWITCHBOARD_USER_TOKENS: `${TOKEN}=C001`,
      ECHO_SHADOW_CANDIDATE: 'offline-again',
      ECHO_SHADOW_SHARE: '100%',
      ...serviceKeyEnv('echo'),
    });
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 150; i++) {
      const ended = await Promise.race([worker.exited, new Promise((resolve) => setTimeout(resolve, 100))]);
      expect(ended, worker.output()).toBeUndefined();
      if ((await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200) break;
    }
    const client = await bearerClient(url, TOKEN);
    const task = await client.sendMessage(
      sendMessageRequest({ message: userMessage({ text: 'Hello there' }) }),
    );
    if (!('status' in task)) throw new Error('expected a task');

    const pairs = new ShadowPairStore({ redis, prefix: `{${namespace}:echo}` });
    let pair: ShadowPair | undefined;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline && !(pair?.live && pair.shadow); ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      pair = await pairs.get(task.id);
    }
    expect(pair, worker.output()).toMatchObject({
      agent: 'echo',
      candidate: 'offline-again',
      text: 'Hello there',
      live: { role: 'live', by: 'offline-planner', outcome: 'completed', tools: [] },
      shadow: { role: 'shadow', by: 'offline-planner', outcome: 'model', tools: [] },
    });
    // The same offline planner on both sides: the same answer.
    expect(pair?.shadow?.answer).toBe(pair?.live?.answer);
    // Each side names its own trace, for `switchboard trace <id>`.
    expect(pair?.live?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(pair?.shadow?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(pair?.shadow?.traceId).not.toBe(pair?.live?.traceId);
    expect(await worker.stop(), worker.output()).toBe(0);
  }, 60_000);
});
