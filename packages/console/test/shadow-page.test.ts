import { randomUUID } from 'node:crypto';
import { createRedisConnection, type RedisConnection } from '@switchboard/redis';
import { ShadowPairStore, type ShadowSide, shadowPrefix } from '@switchboard/shadow';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redisShadowView, spanTraceView } from '../src/index.ts';
import { startConsoleHost } from './support/console-host.ts';
import { getPage, HOSTILE_SHOWN, HOSTILE_TEXT, inertProblems, operatorCookie } from './support/signed-in.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let redis: RedisConnection;
let namespace = '';
let running: Awaited<ReturnType<typeof startConsoleHost>> | undefined;

beforeEach(() => {
  redis = createRedisConnection({ url: REDIS_URL });
  namespace = `console-shadow-${randomUUID().slice(0, 8)}`;
});
afterEach(async () => {
  await running?.close();
  running = undefined;
  const keys = await redis.keys(`*${namespace}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const side = (
  role: ShadowSide['role'],
  answer: string,
  tools: ShadowSide['tools'],
  traceId: string,
): ShadowSide => ({
  role,
  by: role === 'live' ? 'gpt-live' : 'gpt-candidate',
  answer,
  outcome: 'completed',
  tools,
  traceId,
  finishedAt: new Date().toISOString(),
});

/** Two pairs of the orders agent: one the shadow agreed on, one where it made a hostile extra write. */
async function recordPairs() {
  const store = new ShadowPairStore({ redis, prefix: shadowPrefix(namespace, 'orders') });
  const copy = (taskId: string, acceptedAt = new Date()) => ({
    taskId,
    contextId: `ctx-${taskId}`,
    agent: 'orders',
    text: 'Where is my order?',
    acceptedAt: acceptedAt.toISOString(),
  });
  const track = { tool: 'track_order', risk: 'read' as const, arguments: { id: 'A1' }, status: 'ok' };
  await store.open(copy('task-agree'), 'candidate-2');
  await store.record('task-agree', side('live', 'It ships today.', [track], 'a'.repeat(32)));
  await store.record('task-agree', side('shadow', 'It ships today.', [track], 'b'.repeat(32)));
  // A day earlier, another the shadow agreed on: two days to plot.
  await store.open(copy('task-yesterday', new Date(Date.now() - 24 * 3600 * 1000)), 'candidate-2');
  await store.record('task-yesterday', side('live', 'It ships today.', [track], 'e'.repeat(32)));
  await store.record('task-yesterday', side('shadow', 'It ships today.', [track], 'f'.repeat(32)));
  await store.open(copy(`task-${HOSTILE_TEXT}`), 'candidate-2');
  await store.record(`task-${HOSTILE_TEXT}`, side('live', 'It ships today.', [track], 'c'.repeat(32)));
  await store.record(
    `task-${HOSTILE_TEXT}`,
    side(
      'shadow',
      HOSTILE_TEXT,
      [track, { tool: `refund_${HOSTILE_TEXT}`, risk: 'dangerous', arguments: {}, status: 'ok' }],
      'd'.repeat(32),
    ),
  );
}

describe('the shadow page', () => {
  it('shows each agent’s agreement rates and the disagreements from the pair records in Redis, inert', async () => {
    await recordPairs();
    running = await startConsoleHost({
      email: { to: 'a@example.com', subject: 's', body: 'b' },
      pages: { shadow: redisShadowView({ redis, namespace, agents: async () => ['orders', 'comms'] }) },
    });
    const url = `${running.consoleUrl}/shadow`;
    expect((await getPage(url)).status).toBe(303);
    const { status, text } = await getPage(url, await operatorCookie(running.consoleUrl));
    expect(status).toBe(200);
    expect(text).toContain('<a href="/console/shadow">Shadow</a>');
    // orders, candidate-2: 3 pairs compared, the same tools, writes and answer in 2 of 3, 1 dangerous.
    expect(text).toMatch(
      /<td>orders<\/td><td>candidate-2<\/td><td>3<\/td><td>3<\/td><td>0<\/td>\s*<td>67%<\/td><td>67%<\/td><td>67%<\/td>/,
    );
    // Agreement by day: yesterday all agreed, today one of two.
    expect(text).toContain('orders candidate-2: agreement by day');
    expect(text).toContain('3 lines over 2 points');
    expect(text).toMatch(/<title>same tools: 50\.0% \(\d{4}-\d{2}-\d{2}\)<\/title>/);
    expect(text).toContain(`dangerous refund_${HOSTILE_SHOWN} the live side did not take`);
    expect(text).toContain(`<code>task-${HOSTILE_SHOWN}</code>`);
    // Without a trace reader the ids are text; with one, links to the console's trace page.
    expect(text).toContain(`<td><code>${'d'.repeat(32)}</code></td>`);
    expect(text).not.toContain('task-agree');
    expect(inertProblems(text)).toEqual([]);
  });

  it('links each disagreement’s traces to the console’s trace page when it reads traces', async () => {
    await recordPairs();
    running = await startConsoleHost({
      email: { to: 'a@example.com', subject: 's', body: 'b' },
      pages: {
        shadow: redisShadowView({ redis, namespace, agents: async () => ['orders'] }),
        trace: spanTraceView({ spanFile: '/nonexistent/spans.jsonl', service: 'mailer' }),
      },
    });
    const { text } = await getPage(`${running.consoleUrl}/shadow`, await operatorCookie(running.consoleUrl));
    expect(text).toContain(`<a href="/console/traces/${'d'.repeat(32)}"><code>${'d'.repeat(32)}</code></a>`);
  });

  it('says how to start a shadow when there are no pairs', async () => {
    running = await startConsoleHost({
      email: { to: 'a@example.com', subject: 's', body: 'b' },
      pages: { shadow: redisShadowView({ redis, namespace, agents: async () => ['orders'] }) },
    });
    const { text } = await getPage(`${running.consoleUrl}/shadow`, await operatorCookie(running.consoleUrl));
    expect(text).toContain('No shadow pairs yet');
    expect(text).toContain('&lt;AGENT&gt;_SHADOW_CANDIDATE');
  });
});
