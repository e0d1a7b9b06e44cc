import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Role, type Task, TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { createRedisConnection } from '@switchboard/redis';
import type { SpanRecord } from '@switchboard/telemetry';
import { freePort, type GroupProcess, spawnGroup } from '@switchboard/test-processes';
import { afterAll, describe, expect, it } from 'vitest';
import { CANARY } from '../src/agents.ts';
import { startOtlpReceiver } from './support/otlp-receiver.ts';
import { SERVICE_STOP, startService } from './support/services.ts';

const cliBin = fileURLToPath(new URL('../../packages/cli/bin/switchboard.mjs', import.meta.url));
const redis = createRedisConnection({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
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

/**
 * Runs `switchboard <args>` as a user would, in its own process group, with `env` added to ours;
 * rejects, with what it printed, when it runs longer than 60 s.
 */
async function switchboard(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const run = spawnGroup({
    args: [cliBin, ...args],
    env: { ...process.env, ...env },
    name: `switchboard ${args.join(' ')}`,
  });
  const code = await run.waitForExit({ timeoutMs: 60_000 });
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/**
 * Runs one request through a supervisor and a worker, each its own process, and stops both. `ask`
 * sends it, given the supervisor's URL.
 */
async function oneRequest<T>(env: Record<string, string>, ask: (url: string) => Promise<T>) {
  const prefix = `{e2e:${randomUUID()}}`;
  const port = await freePort();
  let worker: GroupProcess | undefined;
  let supervisor: GroupProcess | undefined;
  try {
    worker = await startService('worker-service.ts', { ...env, E2E_PREFIX: prefix });
    supervisor = await startService('supervisor-service.ts', {
      ...env,
      E2E_PREFIX: prefix,
      E2E_PORT: String(port),
    });
    return await ask(`http://127.0.0.1:${port}`);
  } finally {
    // Both stop, and the keys go, even when the other did not start or one of them fails to stop.
    const ends = [await supervisor?.stop(SERVICE_STOP), await worker?.stop(SERVICE_STOP)];
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    if (supervisor && worker) expect(ends, 'how the supervisor and the worker ended').toEqual([0, 0]);
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
  it('exports `switchboard ask` and every hop over OTLP/HTTP as one tree: the command → supervisor → queue → worker → model and tools', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const otlp = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '100' };
      const asked = await oneRequest({ E2E_OTLP_ENDPOINT: receiver.endpoint, ...otlp }, (url) =>
        switchboard(
          ['ask', '--json', '--url', url, '--token', 'unchecked', 'Where is my order A10086?'],
          otlp,
        ),
      );
      expect(asked.code, asked.stderr).toBe(0);
      const answer = JSON.parse(asked.stdout) as { state: string; traceId: string };
      expect(answer.state).toBe('completed');
      const spans = receiver.spans;
      expect(new Set(spans.map((span) => span.service))).toEqual(
        new Set(['switchboard-cli', 'supervisor', 'orders']),
      );
      // One trace, the one the command printed, card fetch included; one root, the user's command;
      // no span whose parent was not exported.
      expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([answer.traceId]));
      const roots = spans.filter((span) => span.parentSpanId === undefined);
      expect(roots.map((span) => `${span.service}:${span.name}`)).toEqual([
        'switchboard-cli:switchboard ask',
      ]);
      expect(roots[0]?.attributes).toMatchObject({
        'process.executable.name': 'switchboard',
        'process.exit.code': 0,
      });
      const ids = new Set(spans.map((span) => span.spanId));
      expect(spans.filter((span) => span.parentSpanId !== undefined && !ids.has(span.parentSpanId))).toEqual(
        [],
      );
      const call = spans.find((span) => span.service === 'switchboard-cli' && span.kind === 'client');
      expect(call?.attributes).toMatchObject({
        'a2a.method.name': 'SendStreamingMessage',
        'a2a.task.state': 'TASK_STATE_COMPLETED',
        'server.address': '127.0.0.1',
      });

      const workerChat = spans.find((span) => span.service === 'orders' && span.name.startsWith('chat '));
      if (!workerChat) throw new Error('no chat span from the worker');
      const chain = ancestry(spans, workerChat);
      const expected = [
        'switchboard-cli:switchboard ask',
        'switchboard-cli:SendStreamingMessage',
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
      // The request's cost, on the supervisor's SERVER span: every hop's run summed (each run's own
      // usage is on its invoke_agent span), per agent and in total.
      const runs = spans.filter((span) => span.name.startsWith('invoke_agent '));
      const usage = (of: SpanRecord[], key: string) =>
        of.reduce((sum, span) => sum + Number(span.attributes[key] ?? 0), 0);
      const costed = spans.find(
        (span) =>
          span.service === 'supervisor' &&
          span.kind === 'server' &&
          'switchboard.cost.hops' in span.attributes,
      );
      expect(costed?.attributes).toMatchObject({
        'gen_ai.usage.input_tokens': usage(runs, 'gen_ai.usage.input_tokens'),
        'gen_ai.usage.output_tokens': usage(runs, 'gen_ai.usage.output_tokens'),
        'switchboard.cost.hops': runs.length,
      });
      // The same totals on the trace's root (the user's command) and on its call's CLIENT span.
      const costKeys = Object.keys(costed?.attributes ?? {}).filter((key) =>
        /^switchboard\.cost\.|^gen_ai\.usage\./.test(key),
      );
      expect(costKeys).toHaveLength(7);
      const costOn = (span: SpanRecord | undefined) =>
        Object.fromEntries(costKeys.map((key) => [key, span?.attributes[key]]));
      expect(costOn(roots[0])).toEqual(costOn(costed));
      expect(costOn(call)).toEqual(costOn(costed));
      const perAgent = ((costed?.attributes['switchboard.cost.agents'] ?? []) as string[]).map(
        (entry) => JSON.parse(entry) as { agent: string; tokensIn: number; tokensOut: number },
      );
      expect(perAgent.map(({ agent, tokensIn, tokensOut }) => ({ agent, tokensIn, tokensOut }))).toEqual(
        ['supervisor', 'orders'].map((agent) => {
          const own = runs.filter((span) => span.service === agent);
          return {
            agent,
            tokensIn: usage(own, 'gen_ai.usage.input_tokens'),
            tokensOut: usage(own, 'gen_ai.usage.output_tokens'),
          };
        }),
      );

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
    const task = await oneRequest({ E2E_SPAN_FILE: spanFile, OTEL_BSP_SCHEDULE_DELAY: '100' }, (url) =>
      askSupervisor(url, 'Where is my order A10086?'),
    );
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const lines = (await readFile(spanFile, 'utf8')).trim().split('\n');
    expect(lines.length).toBeGreaterThan(10);
    const { main } = await import('@switchboard/cli');
    const printed: string[] = [];
    const code = await main(['trace', 'last', '--file', spanFile], {
      env: {},
      output: { out: (line) => printed.push(line), err: (line) => printed.push(line) },
    });
    const text = printed.join('\n');
    expect(code).toBe(0);
    expect(text).toMatch(/invoke_agent supervisor\s+supervisor/);
    expect(text).toMatch(/process a2a\.orders\s+orders/);
    expect(text).toMatch(/execute_tool track_parcel\s+orders .*ERROR/);
    // The request's cost under the tree, from its root SERVER span: the runs' usage, summed.
    const runs = lines
      .map((line) => JSON.parse(line) as SpanRecord)
      .filter((span) => span.name.startsWith('invoke_agent '));
    const tokens = (key: string) => runs.reduce((sum, span) => sum + Number(span.attributes[key] ?? 0), 0);
    expect(text).toContain('Cost of the request (supervisor, SendMessage):');
    expect(text).toMatch(
      new RegExp(
        `\\ntotal\\s+${tokens('gen_ai.usage.input_tokens')}\\s+${tokens('gen_ai.usage.output_tokens')}\\s+\\d+\\s+\\d+\\s+\\d+\\s+2\\n?`,
      ),
    );
    expect(text).not.toContain(CANARY);
  });
});
