import { randomUUID } from 'node:crypto';
import type { ChatRequest } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { startOpenAICompatibleServer } from '@switchboard/openai/testing';
import { type ShadowCopy, ShadowPairStore, type ShadowSide, shadowPrefix } from '@switchboard/shadow';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, hasStack, switchboard } from './support.ts';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
const namespace = `cli-shadow-${randomUUID().slice(0, 8)}`;
const judgeNamespace = `cli-shadow-judge-${randomUUID().slice(0, 8)}`;
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

const storeOf = (ns: string) => new ShadowPairStore({ redis, prefix: shadowPrefix(ns, 'orders') });

async function recordPair(
  copy: Partial<ShadowCopy>,
  live: Partial<ShadowSide>,
  shadow: Partial<ShadowSide>,
  ns = namespace,
) {
  const pairs = storeOf(ns);
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
  const keys = await redis.keys(`*cli-shadow-*`);
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

/**
 * A stand-in judge behind the OpenAI-compatible endpoint: "equivalent" when both answers name the same
 * order ids and the same state words, and the one that waits for an operator better, as a judge model
 * would decide for these cases.
 */
function judgeTurn(request: ChatRequest) {
  const last = request.messages.at(-1);
  const { answer_A: a, answer_B: b } = JSON.parse(String(last?.content)) as Record<string, string>;
  const facts = (text: string) =>
    [...new Set(text.toLowerCase().match(/a\d{5}|shipped|refunded|approve/g) ?? [])].sort().join(',');
  const equivalent = facts(a ?? '') === facts(b ?? '');
  return {
    text: JSON.stringify({
      equivalent,
      // Waiting for an operator is right for a refund: whichever letter it came as.
      better: equivalent ? 'same' : /approve/.test(a ?? '') ? 'A' : 'B',
      reason: equivalent
        ? 'Both say the order has shipped.'
        : 'One refunds, the other waits for an operator.',
    }),
  };
}

describe('switchboard shadow report --judge', () => {
  let reworded = '';
  let refund = '';
  beforeAll(async () => {
    const ns = judgeNamespace;
    await recordPair({}, {}, {}, ns);
    reworded = await recordPair(
      {},
      {},
      { answer: 'Your order A10086 is shipped and on its way to you.' },
      ns,
    );
    refund = await recordPair(
      { text: 'My kettle arrived broken' },
      { answer: 'I have asked an operator to approve the refund.' },
      { answer: 'I refunded order A10086.' },
      ns,
    );
  });

  it('judges answers that differ in text, keeps each verdict, and does not ask again', async () => {
    const model = new ScriptedModel({ turns: [], modelId: 'judge-1', whenExhausted: judgeTurn });
    const server = await startOpenAICompatibleServer({ model, apiKey: 'local-key' });
    try {
      const env = {
        REDIS_URL: redisUrl,
        SWITCHBOARD_NAMESPACE: judgeNamespace,
        OPENAI_API_KEY: 'local-key',
        OPENAI_BASE_URL: server.baseURL,
      };
      const run = await switchboard(['shadow', 'report', '--agent', 'orders', '--judge', 'judge-1'], env);
      expect(run.code, run.stderr).toBe(0);
      // Only the two pairs whose answers differ in text went to the judge.
      expect(server.requests).toHaveLength(2);
      expect(run.stderr).toContain('Judge judge-1: 2 pairs judged now.');
      // Same text 1 of 3; agreeing by the judge too, 2 of 3.
      expect(run.stdout).toMatch(/orders\s+prompt-v2\s+3\s+3\s+0\s+100%\s+100%\s+33%\s+67% \(2 judged\)/);
      expect(run.stdout).not.toContain(`task ${reworded}`);
      expect(run.stdout).toContain(
        `task ${refund}: other answer (judge judge-1: not equivalent, live better: One refunds, the other waits for an operator.)`,
      );

      const kept = await storeOf(judgeNamespace).get(reworded);
      expect(kept?.judgement).toMatchObject({ by: 'judge-1', against: 'live', equivalent: true });

      const again = await switchboard(
        ['shadow', 'report', '--agent', 'orders', '--judge', 'judge-1', '--json'],
        env,
      );
      expect(again.code, again.stderr).toBe(0);
      expect(server.requests).toHaveLength(2);
      const report = JSON.parse(again.stdout);
      expect(report.judge).toEqual({ model: 'judge-1', judged: 0, failed: 0, left: 0 });
      expect(report.reports[0]).toMatchObject({
        judged: 2,
        agreement: { answers: 1 / 3, answersAgree: 2 / 3 },
      });
    } finally {
      await server.close();
    }
  });

  it('a judge whose answers do not fit the verdict is counted, not trusted', async () => {
    const model = new ScriptedModel({
      turns: [],
      modelId: 'judge-2',
      whenExhausted: { text: 'They look similar to me.' },
    });
    const server = await startOpenAICompatibleServer({ model, apiKey: 'local-key' });
    try {
      const run = await switchboard(['shadow', 'report', '--agent', 'orders', '--judge', 'judge-2'], {
        REDIS_URL: redisUrl,
        SWITCHBOARD_NAMESPACE: judgeNamespace,
        OPENAI_API_KEY: 'local-key',
        OPENAI_BASE_URL: server.baseURL,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(
        'Judge judge-2: 0 pairs judged now, 2 without a valid verdict (see the log).',
      );
      // The earlier verdicts are another model's: not this one's, so not replaced.
      expect((await storeOf(judgeNamespace).get(reworded))?.judgement?.by).toBe('judge-1');
      expect(hasStack(run.stderr)).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('--judge-max bounds the calls of one run, and --judge without a key says what to set', async () => {
    const model = new ScriptedModel({ turns: [], modelId: 'judge-3', whenExhausted: judgeTurn });
    const server = await startOpenAICompatibleServer({ model, apiKey: 'local-key' });
    try {
      const run = await switchboard(
        ['shadow', 'report', '--agent', 'orders', '--judge', 'judge-3', '--judge-max', '1'],
        {
          REDIS_URL: redisUrl,
          SWITCHBOARD_NAMESPACE: judgeNamespace,
          OPENAI_API_KEY: 'local-key',
          OPENAI_BASE_URL: server.baseURL,
        },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(server.requests).toHaveLength(1);
      expect(run.stderr).toContain(
        'Judge judge-3: 1 pairs judged now, 1 left for the next run (--judge-max).',
      );
    } finally {
      await server.close();
    }
    const noKey = await switchboard(['shadow', 'report', '--judge', 'judge-3'], {
      REDIS_URL: redisUrl,
      SWITCHBOARD_NAMESPACE: judgeNamespace,
      OPENAI_API_KEY: '',
    });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('--judge needs OPENAI_API_KEY');
  });
});
