import { describe, expect, it, vi } from 'vitest';
import { ContextWindow } from '../src/context/context-window.ts';
import { assertValidHistory, findHistoryProblems } from '../src/context/history-check.ts';
import { estimatePromptTokens } from '../src/context/token-estimate.ts';
import { trimHistory } from '../src/context/trim-history.ts';
import { splitTurns } from '../src/context/turns.ts';
import { AgentError } from '../src/errors.ts';
import type { ChatMessage, ToolDeclaration } from '../src/model/messages.ts';
import { toolError, toolOk } from '../src/tools/tool-result.ts';

const system = (content: string): ChatMessage => ({ role: 'system', content });
const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });
const calls = (...ids: string[]): ChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: ids.map((id) => ({ id, type: 'function', function: { name: `tool_${id}`, arguments: '{}' } })),
});
const result = (id: string, data: unknown = 'done'): ChatMessage => ({
  role: 'tool',
  tool_call_id: id,
  content: JSON.stringify(toolOk(data)),
});
const failure = (id: string, code: 'TIMEOUT' | 'TOOL_FAILED', message: string): ChatMessage => ({
  role: 'tool',
  tool_call_id: id,
  content: JSON.stringify(toolError(code, message, 'Try again later.')),
});

/** A turn whose assistant calls three tools in parallel; results come back out of order. */
const parallelTurn = (n: number): ChatMessage[] => [
  user(`question ${n} `.repeat(5)),
  calls(`c${n}a`, `c${n}b`, `c${n}c`),
  result(`c${n}c`, 'x'.repeat(40)),
  result(`c${n}a`),
  result(`c${n}b`, 'y'.repeat(80)),
  assistant(`answer ${n} `.repeat(4)),
];

const nonSystem = (messages: readonly ChatMessage[]) => messages.filter((m) => m.role !== 'system');

function refusal(run: () => unknown): AgentError {
  try {
    run();
  } catch (error) {
    if (error instanceof AgentError) return error;
    throw error;
  }
  throw new Error('expected an AgentError');
}

/** True when every assistant tool call in `messages` has its result and every result its call. */
function groupsWhole(messages: readonly ChatMessage[]): boolean {
  const callIds = messages.flatMap((m) =>
    m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : [],
  );
  const resultIds = messages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []));
  return callIds.length === resultIds.length && callIds.every((id) => resultIds.includes(id));
}

describe('findHistoryProblems / assertValidHistory', () => {
  it('accepts parallel results in any order right after their assistant message', () => {
    const history = [system('s'), ...parallelTurn(1), ...parallelTurn(2)];
    expect(findHistoryProblems(history)).toEqual([]);
    expect(() => assertValidHistory(history)).not.toThrow();
  });

  it.each([
    ['orphan_tool_result', [user('u'), result('call_9')], 1, 'call_9'],
    ['missing_tool_result', [user('u'), calls('call_1', 'call_2'), result('call_1')], 1, 'call_2'],
    ['separated_tool_result', [user('u'), calls('call_1'), user('again'), result('call_1')], 3, 'call_1'],
    ['separated_tool_result', [user('u'), calls('call_1'), assistant('hm'), result('call_1')], 3, 'call_1'],
    ['duplicate_tool_result', [user('u'), calls('call_1'), result('call_1'), result('call_1')], 3, 'call_1'],
    [
      'duplicate_tool_call_id',
      [user('u'), calls('call_1'), result('call_1'), calls('call_1'), result('call_1')],
      3,
      'call_1',
    ],
  ] as const)('detects %s with its index and id', (kind, history, index, toolCallId) => {
    expect(findHistoryProblems(history)).toContainEqual({ kind, index, toolCallId });
  });

  it('refuses a malformed history naming the index, the id and the fix', () => {
    const history = [
      system('s'),
      user('u'),
      calls('call_1'),
      result('call_1'),
      assistant('ok'),
      result('call_9'),
    ];
    const error = refusal(() => assertValidHistory(history));
    expect(error.code).toBe('MALFORMED_HISTORY');
    expect(error.message).toContain('was not sent to the model');
    expect(error.message).toContain('tool result at index 5 answers call_9');
    expect(error.message).toContain('Remove it or add the assistant message that made the call');
    expect(error.details?.problems).toEqual([{ kind: 'orphan_tool_result', index: 5, toolCallId: 'call_9' }]);
  });

  it('lists several problems in message order, the first one described first', () => {
    const history = [user('u'), calls('call_1'), user('next'), assistant('ok'), result('call_9')];
    expect(findHistoryProblems(history)).toEqual([
      { kind: 'missing_tool_result', index: 1, toolCallId: 'call_1' },
      { kind: 'orphan_tool_result', index: 4, toolCallId: 'call_9' },
    ]);
    expect(refusal(() => assertValidHistory(history)).message).toMatch(
      /index 1 calls call_1.*index 4 answers call_9/,
    );
  });

  it('allowPendingCalls lets only the last assistant message wait for results', () => {
    const waiting = [user('u'), calls('call_1', 'call_2'), result('call_2')];
    expect(() => assertValidHistory(waiting)).toThrow(/index 1 calls call_1/);
    expect(() => assertValidHistory(waiting, { allowPendingCalls: true })).not.toThrow();

    const earlierMissing = [user('u'), calls('call_0'), user('next'), calls('call_1')];
    expect(findHistoryProblems(earlierMissing, { allowPendingCalls: true })).toEqual([
      { kind: 'missing_tool_result', index: 1, toolCallId: 'call_0' },
    ]);
    // Once a user message follows, the calls can no longer be answered in place.
    const abandoned = [user('u'), calls('call_1'), user('never mind')];
    expect(findHistoryProblems(abandoned, { allowPendingCalls: true })).toEqual([
      { kind: 'missing_tool_result', index: 1, toolCallId: 'call_1' },
    ]);
  });
});

describe('splitTurns', () => {
  it('separates leading system messages, a preamble and user-led turns', () => {
    const history = [
      system('a'),
      system('b'),
      assistant('hello'),
      system('late'),
      user('1'),
      system('mid'),
      user('2'),
      assistant('x'),
    ];
    expect(splitTurns(history)).toEqual({
      system: [system('a'), system('b')],
      preamble: [assistant('hello'), system('late')],
      turns: [
        [user('1'), system('mid')],
        [user('2'), assistant('x')],
      ],
    });
  });
});

describe('trimHistory', () => {
  const history = [system('rules'), ...parallelTurn(1), ...parallelTurn(2), ...parallelTurn(3)];

  it('keeps leading system messages and the most recent maxTurns turns', () => {
    const trimmed = trimHistory({ messages: history, maxTurns: 2 });
    expect(trimmed.messages).toEqual([system('rules'), ...parallelTurn(2), ...parallelTurn(3)]);
    expect(trimmed.dropped).toEqual(parallelTurn(1));
    expect(trimmed.droppedTurns).toBe(1);
    expect(trimmed.estimatedTokens).toBe(estimatePromptTokens(trimmed.messages));
  });

  it('keeps the most recent turn even when it alone is over budget', () => {
    const trimmed = trimHistory({ messages: history, tokenBudget: 10 });
    expect(trimmed.messages).toEqual([system('rules'), ...parallelTurn(3)]);
    expect(trimmed.overBudget).toBe(true);
    expect(trimmed.droppedTurns).toBe(2);
  });

  it('counts reserveTokens against the budget', () => {
    const all = estimatePromptTokens(history);
    expect(trimHistory({ messages: history, tokenBudget: all }).droppedTurns).toBe(0);
    const reserved = trimHistory({ messages: history, tokenBudget: all, reserveTokens: 20 });
    expect(reserved.droppedTurns).toBe(1);
    expect(reserved.estimatedTokens).toBe(estimatePromptTokens(reserved.messages) + 20);
    expect(reserved.overBudget).toBe(false);
  });

  it.each([
    [
      'begins with an assistant message',
      [system('s'), assistant('Hi! How can I help?'), user('1'), assistant('a1')],
    ],
    [
      'opens with a tool group and no user',
      [calls('p1'), result('p1'), user('1'), assistant('a1'), user('2')],
    ],
  ])('an odd history that %s never keeps an assistant or tool message first', (_, odd) => {
    for (const options of [
      {},
      { maxTurns: 1 },
      { maxTurns: 5 },
      { tokenBudget: 1 },
      { tokenBudget: 10_000 },
    ]) {
      const trimmed = trimHistory({ messages: odd, ...options });
      expect(nonSystem(trimmed.messages)[0]?.role).toBe('user');
      expect(() => assertValidHistory(trimmed.messages)).not.toThrow();
    }
  });

  it('keeps a history without any user message whole', () => {
    const trimmed = trimHistory({ messages: [system('s'), assistant('hello')], tokenBudget: 1 });
    expect(trimmed.messages).toEqual([system('s'), assistant('hello')]);
    expect(trimmed.overBudget).toBe(true);
  });

  it('keeps a parallel tool-call group whole under every maxTurns and tokenBudget', () => {
    const full = estimatePromptTokens(history);
    const turns = splitTurns(history).turns;
    for (let budget = 1; budget <= full + 20; budget += 3) {
      for (const maxTurns of [undefined, 1, 2, 3, 4]) {
        const trimmed = trimHistory({ messages: history, tokenBudget: budget, maxTurns });
        expect(() => assertValidHistory(trimmed.messages)).not.toThrow();
        expect(groupsWhole(trimmed.messages)).toBe(true);
        expect(trimmed.messages[0]).toEqual(system('rules'));
        expect(nonSystem(trimmed.messages)).toEqual(turns.slice(trimmed.droppedTurns).flat());
        expect(trimmed.overBudget).toBe(trimmed.estimatedTokens > budget);
        if (!trimmed.overBudget) expect(trimmed.estimatedTokens).toBeLessThanOrEqual(budget);
        // Nothing is dropped needlessly: one more turn would not have fitted (or maxTurns forbids it).
        if (
          trimmed.droppedTurns > 0 &&
          (maxTurns === undefined || turns.length - trimmed.droppedTurns < maxTurns)
        ) {
          const withOneMore = [system('rules'), ...turns.slice(trimmed.droppedTurns - 1).flat()];
          expect(estimatePromptTokens(withOneMore)).toBeGreaterThan(budget);
        }
      }
    }
  });

  it('does not mutate its input', () => {
    const input = structuredClone(history);
    trimHistory({ messages: input, maxTurns: 1, tokenBudget: 50 });
    expect(input).toEqual(history);
  });

  it('refuses limits that cannot be met', () => {
    expect(refusal(() => trimHistory({ messages: history, maxTurns: 0 })).code).toBe('INVALID_OPTIONS');
    expect(refusal(() => trimHistory({ messages: history, tokenBudget: -1 })).message).toMatch(/tokenBudget/);
  });
});

describe('ContextWindow', () => {
  const failingTurn = [
    user('where is my order?'),
    calls('call_1', 'call_2'),
    failure('call_1', 'TIMEOUT', 'The order service did not answer within 10 s.'),
    result('call_2'),
    assistant('Sorry, I could not look it up.'),
  ];
  const history = [system('You are support.'), ...failingTurn, ...parallelTurn(2), ...parallelTurn(3)];
  const quiet = { warn: vi.fn() };

  it('sends system, recalled facts, the summary, then the kept turns', async () => {
    const recall = vi.fn(() => ['The customer prefers email.', 'Order A10086 shipped on May 2.']);
    const window = new ContextWindow({ maxTurns: 1, recall, logger: quiet });
    const prepared = await window.prepare({ messages: history, conversationId: 'conv-1' });

    expect(recall).toHaveBeenCalledWith(
      expect.objectContaining({ query: parallelTurn(3)[0]?.content, conversationId: 'conv-1' }),
    );
    expect(prepared.recalled).toEqual(['The customer prefers email.', 'Order A10086 shipped on May 2.']);
    expect(prepared.messages.slice(0, 3).map((m) => m.role)).toEqual(['system', 'system', 'system']);
    expect(prepared.messages[1]?.content).toBe(
      'Relevant facts from long-term memory:\n- The customer prefers email.\n- Order A10086 shipped on May 2.',
    );
    expect(prepared.messages[2]?.content).toMatch(
      /^Summary of the earlier conversation: 2 earlier turns were left out/,
    );
    expect(prepared.messages.slice(3)).toEqual(parallelTurn(3));
    expect(prepared.droppedTurns).toBe(2);
    expect(prepared.estimatedTokens).toBe(estimatePromptTokens(prepared.messages));
  });

  it('lists failed tool calls verbatim in the summary, even when the hook omits them', async () => {
    const summarize = vi.fn(() => 'The user asked about an order; it went fine.');
    const window = new ContextWindow({ maxTurns: 1, summarize, logger: quiet });
    const { summary, messages } = await window.prepare({ messages: history, conversationId: 'c' });
    expect(summary).toContain('The user asked about an order; it went fine.');
    expect(summary).toContain(
      '- tool_call_1 (call_1) failed with TIMEOUT: The order service did not answer within 10 s.',
    );
    expect(summary).not.toContain('call_2');
    expect(messages).toContainEqual({ role: 'system', content: summary });
  });

  it('calls summarize again only with the newly dropped messages', async () => {
    const summarize = vi.fn(
      ({ dropped }: { dropped: readonly ChatMessage[] }) => `summary of ${dropped.length}`,
    );
    const window = new ContextWindow({ maxTurns: 1, summarize, logger: quiet });
    await window.prepare({ messages: history, conversationId: 'c' });
    expect(summarize).toHaveBeenCalledTimes(1);
    expect(summarize.mock.calls[0]?.[0]).toMatchObject({
      dropped: [...failingTurn, ...parallelTurn(2)],
      previousSummary: undefined,
    });

    await window.prepare({ messages: history, conversationId: 'c' });
    expect(summarize).toHaveBeenCalledTimes(1);

    const longer = [...history, ...parallelTurn(4)];
    const prepared = await window.prepare({ messages: longer, conversationId: 'c' });
    expect(summarize).toHaveBeenCalledTimes(2);
    expect(summarize.mock.calls[1]?.[0]).toMatchObject({
      dropped: parallelTurn(3),
      previousSummary: 'summary of 11',
    });
    expect(prepared.summary).toMatch(/^Summary of the earlier conversation: summary of 6/);
  });

  it('counts the summary and recalled facts against the token budget', async () => {
    const tools: ToolDeclaration[] = [
      {
        type: 'function',
        function: { name: 'get_order', description: 'Looks up an order.', parameters: {} },
      },
    ];
    const full = estimatePromptTokens(history, tools);
    for (let budget = 1; budget <= full + 200; budget += 7) {
      const window = new ContextWindow({
        tokenBudget: budget,
        summarize: () => 'An earlier part of the conversation, summarised at some length. '.repeat(3),
        recall: () => ['A long-term fact.'],
        logger: quiet,
      });
      const prepared = await window.prepare({ messages: history, conversationId: 'c', tools });
      expect(prepared.estimatedTokens).toBe(estimatePromptTokens(prepared.messages, tools));
      expect(prepared.overBudget).toBe(prepared.estimatedTokens > budget);
      expect(groupsWhole(prepared.messages)).toBe(true);
      expect(nonSystem(prepared.messages)[0]?.role).toBe('user');
      if (prepared.droppedTurns < 2) expect(prepared.overBudget).toBe(false);
    }
  });

  it('goes on without a hook that throws, and reports it', async () => {
    const logger = { warn: vi.fn() };
    const window = new ContextWindow({
      maxTurns: 1,
      logger,
      summarize: () => {
        throw new Error('summariser down');
      },
      recall: async () => {
        throw new Error('vector store down');
      },
    });
    const prepared = await window.prepare({ messages: history, conversationId: 'c' });
    expect(prepared.recalled).toEqual([]);
    expect(prepared.summary).toMatch(/2 earlier turns were left out/);
    expect(prepared.summary).toContain('failed with TIMEOUT: The order service did not answer within 10 s.');
    expect(prepared.messages.slice(-6)).toEqual(parallelTurn(3));
    expect(logger.warn).toHaveBeenCalledTimes(2);
  });

  it('refuses a history whose kept part is malformed, and one with pending calls', async () => {
    const window = new ContextWindow({ logger: quiet });
    const orphan = [...history, result('call_9')];
    await expect(window.prepare({ messages: orphan, conversationId: 'c' })).rejects.toThrow(
      /index 18 answers call_9/,
    );
    const pending = [...history, user('and now?'), calls('call_7')];
    await expect(window.prepare({ messages: pending, conversationId: 'c' })).rejects.toMatchObject({
      code: 'MALFORMED_HISTORY',
    });
  });

  it('stops when the request is already canceled', async () => {
    const window = new ContextWindow({ logger: quiet });
    const signal = AbortSignal.abort();
    await expect(window.prepare({ messages: history, conversationId: 'c', signal })).rejects.toMatchObject({
      code: 'ABORTED',
    });
  });
});
