import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Role, type Task, TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import type { SpanRecord } from '@switchboard/telemetry';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { CANARY } from '../src/agents.ts';
import { startOtlpReceiver } from './support/otlp-receiver.ts';
import { freePort, startService } from './support/services.ts';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
afterAll(() => redis.quit());

async function askSupervisor(url: string, text: string): Promise<Task> {
  const client = await new ClientFactory().createFromUrl(url);
  return (await client.sendMessage({
    tenant: '',
    message: {
      messageId: randomUUID(),
      role: Role.ROLE_USER,
      parts: [
        { content: { $case: 'text', value: text }, mediaType: 'text/plain', filename: '', metadata: {} },
      ],
      contextId: '',
      taskId: '',
      metadata: {},
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: {},
  })) as Task;
}

/** Runs one request through a supervisor and a worker, each its own process, and stops both. */
async function oneRequest(env: Record<string, string>) {
  const prefix = `{e2e:${randomUUID()}}`;
  const port = await freePort();
  const worker = await startService('worker-service.ts', { ...env, E2E_PREFIX: prefix });
  const supervisor = await startService('supervisor-service.ts', {
    ...env,
    E2E_PREFIX: prefix,
    E2E_PORT: String(port),
  });
  try {
    const task = await askSupervisor(`http://127.0.0.1:${port}`, 'Where is my order A10086?');
    return { task, output: () => supervisor.output() + worker.output() };
  } finally {
    expect(await supervisor.stop()).toBe(0);
    expect(await worker.stop()).toBe(0);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
}

/** The chain of span names from `span` up to the root. */
function ancestry(spans: SpanRecord[], span: SpanRecord): string[] {
  const byId = new Map(spans.map((item) => [item.spanId, item]));
  const chain: string[] = [];
  for (
    let current: SpanRecord | undefined = span;
    current;
    current = current.parentSpanId ? byId.get(current.parentSpanId) : undefined
  ) {
    chain.unshift(`${current.service}:${current.name}`);
  }
  return chain;
}

describe('one request, one trace, across processes', () => {
  it('exports every hop over OTLP/HTTP as one trace: HTTP entry → supervisor → queue → worker → model and tools', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const { task } = await oneRequest({
        E2E_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '100',
      });
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      const spans = receiver.spans;
      expect(new Set(spans.map((span) => span.service))).toEqual(new Set(['supervisor', 'orders']));
      // The client's card fetch (GET /.well-known/agent-card.json) is a request of its own; the
      // A2A request is one trace, whatever process and queue it crossed.
      const requestTrace = spans.find((span) => span.name === 'invoke_agent orders')?.traceId;
      const others = spans.filter((span) => span.traceId !== requestTrace);
      expect(
        others.map(
          (span) =>
            `${span.service}:${span.name} ${String(span.attributes['url.path'] ?? span.attributes['http.target'] ?? '')}`,
        ),
      ).toEqual(['supervisor:GET /.well-known/agent-card.json']);

      const workerChat = spans.find((span) => span.service === 'orders' && span.name.startsWith('chat '));
      if (!workerChat) throw new Error('no chat span from the worker');
      const chain = ancestry(spans, workerChat);
      const expected = [
        'supervisor:POST',
        'supervisor:invoke_agent supervisor',
        'supervisor:execute_tool ask_orders',
        'supervisor:SendMessage',
        'supervisor:send a2a.orders',
        'orders:process a2a.orders',
        'orders:SendMessage',
        'orders:invoke_agent orders',
        'orders:chat scripted-orders',
      ];
      let at = -1;
      for (const step of expected) {
        const found = chain.findIndex((name, index) => index > at && name.startsWith(step));
        expect(found, `${step} in ${chain.join(' → ')}`).toBeGreaterThan(at);
        at = found;
      }
      const failedTool = spans.find((span) => span.name === 'execute_tool track_parcel');
      expect(failedTool?.attributes['error.type']).toBe('TOOL_FAILED');
      expect(failedTool?.status).toEqual({
        code: 'error',
        message: 'Parcel tracking is unavailable right now.',
      });

      const everything = receiver.raw.join('\n');
      expect(everything).not.toContain(CANARY);
      expect(everything).not.toContain('tracking-db.internal');
      for (const span of spans) {
        for (const key of Object.keys(span.attributes)) {
          expect(key).not.toMatch(
            /^gen_ai\.(input|output)\.messages$|^gen_ai\.tool\.call\.(arguments|result)$/,
          );
        }
      }
    } finally {
      await receiver.close();
    }
  });

  it('without a collector, spans go to the local file and `switchboard trace last` draws the tree', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-spans-'));
    const spanFile = join(dir, 'spans.jsonl');
    await oneRequest({ E2E_SPAN_FILE: spanFile, OTEL_BSP_SCHEDULE_DELAY: '100' });
    const lines = (await readFile(spanFile, 'utf8')).trim().split('\n');
    expect(lines.length).toBeGreaterThan(10);
    const { main } = await import('@switchboard/cli');
    const printed: string[] = [];
    const code = await main(['trace', 'last', '--file', spanFile], {
      out: (line) => printed.push(line),
      err: (line) => printed.push(line),
    });
    const text = printed.join('\n');
    expect(code).toBe(0);
    expect(text).toMatch(/invoke_agent supervisor\s+supervisor/);
    expect(text).toMatch(/process a2a\.orders\s+orders/);
    expect(text).toMatch(/execute_tool track_parcel\s+orders .*ERROR/);
    expect(text).not.toContain(CANARY);
  });
});
