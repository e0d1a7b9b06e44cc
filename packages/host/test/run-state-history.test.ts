import { randomUUID } from 'node:crypto';
import { type ChatMessage, createAgentState, findHistoryProblems } from '@switchboard/agent';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunStateStore } from '../src/index.ts';
import { RedisRunStateStore } from '../src/redis.ts';
import { MemoryRunStateStore } from '../src/runs/run-state-store.ts';
import { keysOf, testRedis } from './support/redis.ts';

const redis = testRedis();
const prefix = `{run-history-${randomUUID().slice(0, 8)}}`;

afterAll(async () => {
  const keys = await keysOf(redis, `${prefix}*`);
  if (keys.length > 0) await Promise.all(keys.map((key) => redis.unlink(key)));
  await redis.quit();
});

/** Turn `n`: the user asks, the assistant calls a tool, the tool answers, the assistant replies. */
function turn(n: number): ChatMessage[] {
  const id = `call-${n}`;
  return [
    { role: 'user', content: `Question ${n}` },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: 'get_order', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: id, content: `Result ${n}` },
    { role: 'assistant', content: `Answer ${n}` },
  ];
}

const history = (turns: number): ChatMessage[] => [
  { role: 'system', content: 'Working memory.' },
  ...Array.from({ length: turns }, (_, i) => turn(i + 1)).flat(),
];

const stores: [string, (maxTurns: number) => RunStateStore][] = [
  ['RedisRunStateStore', (maxTurns) => new RedisRunStateStore({ redis, prefix, maxTurns })],
  ['MemoryRunStateStore', (maxTurns) => new MemoryRunStateStore({ maxTurns })],
];

describe.each(stores)('%s', (_name, storeWith) => {
  it('keeps the last turns of a conversation, whole, with the working memory first', async () => {
    const store = storeWith(3);
    const conversation = `ctx-${randomUUID()}`;
    const state = createAgentState({ agent: 'shop', conversationId: conversation });
    await store.save(conversation, { messages: history(10), state });

    const kept = (await store.load(conversation))?.messages ?? [];
    expect(kept).toEqual([
      { role: 'system', content: 'Working memory.' },
      ...turn(8),
      ...turn(9),
      ...turn(10),
    ]);
    // Every tool call still has its result: the cut fell between turns.
    expect(findHistoryProblems(kept)).toEqual([]);
  });

  it('keeps a short conversation as it is, and keeps 50 turns by default', async () => {
    const conversation = `ctx-${randomUUID()}`;
    const state = createAgentState({ agent: 'shop', conversationId: conversation });
    const store = storeWith(50);
    await store.save(conversation, { messages: history(4), state });
    expect((await store.load(conversation))?.messages).toEqual(history(4));
    await store.save(conversation, { messages: history(60), state });
    const kept = (await store.load(conversation))?.messages ?? [];
    expect(kept.filter((message) => message.role === 'user')).toHaveLength(50);
    expect(kept[1]).toEqual({ role: 'user', content: 'Question 11' });
  });

  it('refuses a maxTurns that is not a whole number of at least 1', () => {
    expect(() => storeWith(0)).toThrow('maxTurns must be a whole number of at least 1, got 0.');
  });
});
