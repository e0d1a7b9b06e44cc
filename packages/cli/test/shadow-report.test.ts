import { randomUUID } from 'node:crypto';
import { type ShadowCopy, ShadowPairStore, type ShadowSide, shadowPrefix } from '@switchboard/a2a/shadow';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, hasStack, switchboard } from './support.ts';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
const namespace = `cli-shadow-${randomUUID().slice(0, 8)}`;
const env = { REDIS_URL: redisUrl, SWITCHBOARD_NAMESPACE: namespace };

const side = (role: ShadowSide['role'], over: Partial<ShadowSide>): ShadowSide => ({
  role,
  by: role === 'live' ? 'gpt-4.1-mini' : 'gpt-5-mini',
  answer: 'Order A10086 has shipped.',
  outcome: role === 'live' ? 'completed' : 'model',
  tools: [{ tool: 'get_order', risk: 'read', status: 'succeeded' }],
  traceId: `${role}-trace`,
  finishedAt: new Date().toISOString(),
  ...over,
});

async function recordPair(copy: Partial<ShadowCopy>, live: Partial<ShadowSide>, shadow: Partial<ShadowSide>) {
  const pairs = new ShadowPairStore({ redis, prefix: shadowPrefix(namespace, 'orders') });
  const full: ShadowCopy = {
    taskId: randomUUID(),
    contextId: randomUUID(),
    agent: 'orders',
    text: 'Where is my order A10086?',
    acceptedAt: new Date().toISOString(),
    ...copy,
  };
  await pairs.open(full, 'prompt-v2');
  await pairs.record(full.taskId, side('live', live));
  await pairs.record(full.taskId, side('shadow', shadow));
  return full.taskId;
}

let disagreeing = '';
beforeAll(async () => {
  await recordPair({}, {}, {});
  await recordPair({}, {}, {});
  disagreeing = await recordPair(
    { text: 'My kettle arrived broken' },
    { answer: 'I have asked an operator to approve the refund.' },
    {
      answer: 'I refunded order A10086.',
      traceId: 'shadow-trace-of-the-refund',
      tools: [
        { tool: 'get_order', risk: 'read', status: 'succeeded' },
        { tool: 'refund_order', risk: 'dangerous', status: 'recorded', arguments: { orderId: 'A10086' } },
      ],
    },
  );
  // Two days old: left out by --since 24h.
  await recordPair(
    { acceptedAt: new Date(Date.now() - 2 * 86_400_000).toISOString() },
    {},
    { answer: 'Other.' },
  );
});
afterAll(async () => {
  const keys = await redis.keys(`*${namespace}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe('switchboard shadow report', () => {
  it('prints agreement rates and the disagreement worth a look, with both traces’ ids', async () => {
    const run = await switchboard(['shadow', 'report', '--agent', 'orders', '--since', '24h'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/orders\s+prompt-v2\s+3\s+3\s+0\s+67%\s+67%\s+67%/);
    expect(run.stdout).toContain('Disagreements worth a look:');
    expect(run.stdout).toContain(
      `orders prompt-v2 task ${disagreeing}: dangerous refund_order the live side did not take; other tools; other write arguments; other answer`,
    );
    expect(run.stdout).toContain('live trace live-trace, shadow trace shadow-trace-of-the-refund');
  });

  it('prints JSON for scripts, and every pair kept without --since', async () => {
    const run = await switchboard(['shadow', 'report', '--agent', 'orders', '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.reports).toHaveLength(1);
    expect(report.reports[0]).toMatchObject({
      agent: 'orders',
      candidate: 'prompt-v2',
      pairs: 4,
      compared: 4,
      agreement: { trajectory: 0.75, writes: 0.75, answers: 0.5 },
      violations: { extraWrites: 0, dangerous: 1 },
    });
    expect(report.reports[0].disagreements.map((d: { taskId: string }) => d.taskId)).toContain(disagreeing);
  });

  it('prints a Markdown table', async () => {
    const run = await switchboard(
      ['shadow', 'report', '--agent', 'orders', '--since', '24h', '--markdown'],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('| agent | candidate | pairs |');
    expect(run.stdout).toContain('| orders | prompt-v2 | 3 | 3 | 0 | 67% |');
    expect(run.stdout).toContain(`- orders prompt-v2 task ${disagreeing}:`);
  });

  it('says so when no shadow has recorded anything', async () => {
    const run = await switchboard(['shadow', 'report', '--agent', 'inventory'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('No shadow pairs in namespace');
    expect(run.stdout).toContain('<AGENT>_SHADOW_CANDIDATE');
  });

  it('refuses a --since it cannot read, and says when Redis does not answer', async () => {
    const bad = await switchboard(['shadow', 'report', '--since', 'yesterday'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('give a duration back from now (30m, 24h, 7d) or a date');
    const down = await switchboard(['shadow', 'report'], {
      ...env,
      REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
    });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('Redis does not answer at');
    expect(hasStack(down.stderr)).toBe(false);
  });
});
