import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRedisConnection } from '@switchboard/redis';
import { freePort, type GroupProcess, spawnGroup } from '@switchboard/test-processes';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeNamespaces } from './support/remove-keys.ts';
import { serviceKeyEnv } from './support/service-keys.ts';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = createRedisConnection({ url: redisUrl });
const workdir = mkdtempSync(join(tmpdir(), 'switchboard-log-lines-'));
const script = fileURLToPath(new URL('./support/echo-service-process.ts', import.meta.url));
const started: GroupProcess[] = [];
const namespaces: string[] = [];
const token = `tok-${randomBytes(16).toString('hex')}`;

afterEach(async () => {
  await Promise.all(started.splice(0).map((child) => child.kill()));
});
afterAll(async () => {
  await removeNamespaces(redis, namespaces);
  await redis.quit();
  rmSync(workdir, { recursive: true, force: true });
});

/** Starts the echo service (a real `runAgentService` process) with alice's token; resolves once it serves. */
async function startEcho(): Promise<{ service: GroupProcess; url: string }> {
  const namespace = `loglines-${randomUUID().slice(0, 8)}`;
  namespaces.push(namespace);
  const port = await freePort();
  const service = spawnGroup({
    args: [script],
    env: {
      PATH: process.env.PATH ?? '',
      REDIS_URL: redisUrl,
      PORT: String(port),
      SWITCHBOARD_NAMESPACE: namespace,
      SWITCHBOARD_USER_TOKENS: `${token}=alice`,
      SWITCHBOARD_SPAN_FILE: join(workdir, `${namespace}.jsonl`),
      ...serviceKeyEnv('echo'),
    },
    name: 'the echo service',
  });
  started.push(service);
  await service.waitForLine(/"msg":"echo ready"/, { timeoutMs: 20_000 });
  return { service, url: `http://127.0.0.1:${port}` };
}

/** A JSON-RPC call as alice; `version` is the A2A-Version header (none: the v0.3 protocol). */
async function rpc(url: string, method: string, params: unknown, version?: string): Promise<string> {
  const response = await fetch(`${url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      ...(version ? { 'A2A-Version': version } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return response.text();
}

/** Every line the process wrote, on both streams. */
const linesOf = (service: GroupProcess) =>
  `${service.stdout()}\n${service.stderr()}`.split('\n').filter((line) => line.trim() !== '');

/** The lines that do not parse as one JSON object each. */
const notJson = (lines: string[]) =>
  lines.filter((line) => {
    try {
      const value: unknown = JSON.parse(line);
      return typeof value !== 'object' || value === null || Array.isArray(value);
    } catch {
      return true;
    }
  });

const FORGED = JSON.stringify({
  level: 30,
  time: new Date().toISOString(),
  service: 'supervisor',
  msg: 'approval decided',
  approvalId: 'apr_FORGED',
  decision: 'approved',
  operator: 'finance',
});

describe('what a service writes to its log', () => {
  it('is one JSON object per line even when a task id carries a newline and a forged line', async () => {
    const { service, url } = await startEcho();
    const id = `nope\n${FORGED}\n`;
    const answers = [
      await rpc(url, 'SubscribeToTask', { id }, '1.0'),
      await rpc(
        url,
        'SendStreamingMessage',
        { message: { messageId: randomUUID(), role: 'ROLE_USER', taskId: id, parts: [{ text: 'hi' }] } },
        '1.0',
      ),
      await rpc(url, 'tasks/resubscribe', { id }),
    ];
    // Each was refused (the task does not exist), so the SDK had an error to print.
    for (const answer of answers) expect(answer).toMatch(/"error"/);
    expect(await service.stop(), service.output()).toBe(0);

    const lines = linesOf(service);
    expect(notJson(lines), service.output()).toEqual([]);
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.filter((record) => record.msg === 'approval decided')).toEqual([]);
    expect(records.filter((record) => record.approvalId !== undefined)).toEqual([]);
  }, 60_000);

  it('says one line per kind of refusal, without a stack, and sums up the repeats', async () => {
    const { service, url } = await startEcho();
    const before = linesOf(service).length;
    for (let i = 0; i < 50; i++) await rpc(url, 'SubscribeToTask', { id: `missing-${i}` }, '1.0');
    expect(await service.stop(), service.output()).toBe(0);

    const lines = linesOf(service).slice(before);
    const output = lines.join('\n');
    expect(output).not.toMatch(/\bat .+:\d+:\d+/);
    expect(output).not.toContain('"stack"');
    // The refusal, the summary of the 49 after it, and the service's own draining and stopped lines.
    expect(lines.length, output).toBeLessThanOrEqual(6);
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toContainEqual(
      expect.objectContaining({ msg: 'request refused', caller: 'user:alice', method: 'resubscribe' }),
    );
    expect(records).toContainEqual(
      expect.objectContaining({
        caller: 'user:alice',
        refused: 49,
        msg: expect.stringMatching(/^49 more refusals of TaskNotFound from user:alice in the last \d+ s$/),
      }),
    );
  }, 60_000);
});
