import { AgentError } from '../errors.ts';
import type { ChatMessage } from '../model/messages.ts';
import type { Logger } from '../observe/logger.ts';

/**
 * Writes a rolling summary of what was trimmed. It receives only the messages dropped since the last
 * call and the summary it wrote then, and returns the new summary covering both.
 */
export type SummarizeHook = (input: {
  dropped: readonly ChatMessage[];
  previousSummary: string | undefined;
  signal?: AbortSignal;
}) => Promise<string> | string;

interface SummaryMemo {
  droppedCount: number;
  /** The last message the summary covers, to notice a history that was rewritten rather than extended. */
  lastCovered: string;
  summary: string;
}

/** How many conversations keep a memoised summary; the oldest is forgotten first. */
const MAX_MEMOS = 1_000;

/** Memoises a {@link SummarizeHook} per conversation so it only sees newly dropped messages. */
export class RollingSummary {
  readonly #hook: SummarizeHook;
  readonly #logger: Pick<Logger, 'warn'>;
  readonly #memos = new Map<string, SummaryMemo>();

  constructor({ hook, logger }: { hook: SummarizeHook; logger: Pick<Logger, 'warn'> }) {
    this.#hook = hook;
    this.#logger = logger;
  }

  /**
   * The summary of `dropped` (a prefix of the conversation). Calls the hook only when more has been
   * dropped than last time; undefined when the hook fails (the failure is logged, the memo kept).
   */
  async summarize({
    conversationId,
    dropped,
    signal,
  }: {
    conversationId: string;
    dropped: readonly ChatMessage[];
    signal: AbortSignal | undefined;
  }): Promise<string | undefined> {
    const memo = this.#memos.get(conversationId);
    const continues =
      memo !== undefined &&
      memo.droppedCount <= dropped.length &&
      fingerprint(dropped[memo.droppedCount - 1]) === memo.lastCovered;
    if (continues && memo.droppedCount === dropped.length) return memo.summary;

    const previousSummary = continues ? memo.summary : undefined;
    const fresh = continues ? dropped.slice(memo.droppedCount) : dropped;
    try {
      const summary: unknown = await this.#hook({ dropped: fresh, previousSummary, signal });
      if (typeof summary !== 'string')
        throw new TypeError(`summarize returned ${typeof summary}, not a string`);
      this.#remember(conversationId, {
        droppedCount: dropped.length,
        lastCovered: fingerprint(dropped[dropped.length - 1]),
        summary,
      });
      return summary;
    } catch (err) {
      if (signal?.aborted) throw new AgentError('ABORTED', { cause: signal.reason });
      this.#logger.warn(
        { err, conversationId, droppedMessages: fresh.length },
        'The summarize hook failed; the request goes on with a plain note of what was left out.',
      );
      return undefined;
    }
  }

  #remember(conversationId: string, memo: SummaryMemo): void {
    this.#memos.delete(conversationId);
    this.#memos.set(conversationId, memo);
    if (this.#memos.size > MAX_MEMOS) {
      const oldest = this.#memos.keys().next();
      if (oldest.done !== true) this.#memos.delete(oldest.value);
    }
  }
}

function fingerprint(message: ChatMessage | undefined): string {
  return message === undefined ? '' : JSON.stringify(message);
}
