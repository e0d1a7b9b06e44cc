import type { ApprovalRequest } from '@switchboard/agent';
import { type BoardApproval, type BoardStatus, boardEntry } from '@switchboard/protocol';

/** What a task waits for now, as the executor reports it after every run. */
export interface TaskApprovals {
  taskId: string;
  contextId: string;
  owner: string;
  tenant: string;
  /** The principal key of whom the task acts for (`user:u-1024`): who asked for these actions. */
  requestedBy?: string | undefined;
  pending: readonly ApprovalRequest[];
}

/** A decision an operator takes on the board. */
export interface BoardDecision {
  id: string;
  decision: 'approved' | 'denied';
  decidedBy: string;
  /**
   * The decider's principal key (`operator:ada`). An approval by the principal the entry was
   * requested by is refused (`own_request`): nobody approves what they asked for themselves.
   */
  deciderKey?: string;
  reason?: string;
  now?: Date;
}

/** The outcome of {@link ApprovalBoard.decide}. */
export type DecideResult =
  | { ok: true; approval: BoardApproval }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'already_decided'; approval: BoardApproval }
  | { ok: false; reason: 'own_request'; approval: BoardApproval }
  | { ok: false; reason: 'withdrawn'; approval: BoardApproval };

/** A task that was canceled: its approvals still pending are withdrawn, recording who and when. */
export interface TaskWithdrawal {
  taskId: string;
  /** The principal key of who canceled the task (`user:u-1024`); absent when the task ended otherwise. */
  withdrawnBy?: string | undefined;
  now?: Date;
}

/** A page of {@link ApprovalBoard.page}: oldest first, and where the next page starts, if any. */
export interface ApprovalPage {
  approvals: BoardApproval[];
  /** Pass it as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
}

/** Options of {@link ApprovalBoard.page}. */
export interface PageOptions {
  status?: 'pending' | 'decided' | 'all';
  /** At most this many (default {@link DEFAULT_PAGE_SIZE}). */
  limit?: number;
  /** Where to start: a page's `nextCursor` (default: the oldest). */
  cursor?: string | undefined;
}

/** The page size of `GET /admin/approvals` without `limit`, and the most it may ask for. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 500;

/** Where a page ends: the request time (ms) and id of its last approval, the board's sort order. */
export interface PagePosition {
  at: number;
  id: string;
}

/** The opaque cursor of a position. */
export function encodeCursor({ at, id }: PagePosition): string {
  return Buffer.from(JSON.stringify([at, id])).toString('base64url');
}

/** The position a cursor names; undefined when it is not one this board wrote. */
export function decodeCursor(cursor: string): PagePosition | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [at, id] = value as [unknown, unknown];
    return typeof at === 'number' && Number.isFinite(at) && typeof id === 'string' ? { at, id } : undefined;
  } catch {
    return undefined;
  }
}

/** An entry's place in the board's order: request time, then id. */
export function positionOf(entry: Pick<BoardApproval, 'requestedAt' | 'id'>): PagePosition {
  return { at: Date.parse(entry.requestedAt) || 0, id: entry.id };
}

/** Whether `entry` comes after `cursor` in the board's order. */
export function isAfter(entry: PagePosition, cursor: PagePosition): boolean {
  return entry.at > cursor.at || (entry.at === cursor.at && entry.id > cursor.id);
}

/** The page of `sorted` (in board order, filtered) after `cursor`, at most `limit` long. */
export function pageOf(
  sorted: readonly BoardApproval[],
  { limit = DEFAULT_PAGE_SIZE, cursor }: PageOptions,
): ApprovalPage {
  const from = cursor ? decodeCursor(cursor) : undefined;
  const after = from ? sorted.filter((entry) => isAfter(positionOf(entry), from)) : sorted;
  const approvals = after.slice(0, limit);
  const last = approvals.at(-1);
  return after.length > limit && last
    ? { approvals, nextCursor: encodeCursor(positionOf(last)) }
    : { approvals };
}

/**
 * The operators' view of every approval that waits on this service's tasks. The executor keeps it
 * in step with each task; `decide` is atomic, so two operators can never both decide one approval.
 */
export interface ApprovalBoard {
  /**
   * Adds a task's pending approvals; its earlier ones still pending and no longer asked become
   * `withdrawn`. An entry whose arguments are not those the task asks for now (they changed, e.g.
   * after an approval that was then refused) is pending again with what is asked now.
   */
  sync(task: TaskApprovals): Promise<void>;
  list(options?: { status?: 'pending' | 'decided' | 'all' }): Promise<BoardApproval[]>;
  /** One page of the board, oldest first (`GET /admin/approvals?limit=&cursor=`). */
  page(options?: PageOptions): Promise<ApprovalPage>;
  get(id: string): Promise<BoardApproval | undefined>;
  /** Moves a pending approval to its decision, once; never an approval by whom it was requested by. */
  decide(decision: BoardDecision): Promise<DecideResult>;
  /** Puts a decided approval back to pending (the decision could not be delivered to its task). */
  reopen(id: string): Promise<void>;
  /**
   * Withdraws what a canceled task still waits for: a decision on it is then refused (`withdrawn`)
   * instead of being delivered to a task that can no longer take it. Returns the ids withdrawn.
   */
  withdrawTask(withdrawal: TaskWithdrawal): Promise<string[]>;
  /** How many approvals requested by this principal key (`user:u-1024`) are pending now. */
  pendingCount(requestedBy: string): Promise<number>;
}

/** How many approvals one principal may have pending on a board by default (`maxPendingApprovals`). */
export const DEFAULT_MAX_PENDING_APPROVALS = 20;

/** Whether a board entry matches a `list` filter. */
export function matchesStatus(status: BoardStatus, filter: 'pending' | 'decided' | 'all'): boolean {
  if (filter === 'all') return true;
  if (filter === 'pending') return status === 'pending';
  return status === 'approved' || status === 'denied';
}

/** An in-process board, for one process and for tests. */
export class MemoryApprovalBoard implements ApprovalBoard {
  readonly #entries = new Map<string, BoardApproval>();

  async sync({ pending, ...task }: TaskApprovals): Promise<void> {
    const asked = new Set(pending.map((request) => request.id));
    for (const entry of this.#entries.values()) {
      if (entry.taskId === task.taskId && entry.status === 'pending' && !asked.has(entry.id))
        entry.status = 'withdrawn';
    }
    for (const request of pending) {
      const existing = this.#entries.get(request.id);
      if (!existing || existing.status === 'withdrawn' || existing.argumentsHash !== request.argumentsHash)
        this.#entries.set(request.id, boardEntry(request, task));
    }
  }

  async list({ status = 'pending' }: { status?: 'pending' | 'decided' | 'all' } = {}) {
    return [...this.#entries.values()]
      .filter((entry) => matchesStatus(entry.status, status))
      .sort((a, b) => {
        const [x, y] = [positionOf(a), positionOf(b)];
        return x.at - y.at || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
      })
      .map((entry) => structuredClone(entry));
  }

  async page(options: PageOptions = {}): Promise<ApprovalPage> {
    return pageOf(await this.list({ status: options.status ?? 'pending' }), options);
  }

  async get(id: string) {
    const entry = this.#entries.get(id);
    return entry && structuredClone(entry);
  }

  async decide({
    id,
    decision,
    decidedBy,
    deciderKey,
    reason,
    now = new Date(),
  }: BoardDecision): Promise<DecideResult> {
    const entry = this.#entries.get(id);
    if (!entry) return { ok: false, reason: 'not_found' };
    if (entry.status === 'withdrawn')
      return { ok: false, reason: 'withdrawn', approval: structuredClone(entry) };
    if (entry.status !== 'pending')
      return { ok: false, reason: 'already_decided', approval: structuredClone(entry) };
    if (decision === 'approved' && deciderKey && entry.requestedBy === deciderKey)
      return { ok: false, reason: 'own_request', approval: structuredClone(entry) };
    Object.assign(
      entry,
      { status: decision, decidedBy, decidedAt: now.toISOString() },
      reason ? { reason } : {},
    );
    return { ok: true, approval: structuredClone(entry) };
  }

  async withdrawTask({ taskId, withdrawnBy, now = new Date() }: TaskWithdrawal): Promise<string[]> {
    const withdrawn: string[] = [];
    for (const entry of this.#entries.values()) {
      if (entry.taskId !== taskId || entry.status !== 'pending') continue;
      Object.assign(
        entry,
        { status: 'withdrawn', withdrawnAt: now.toISOString() },
        withdrawnBy ? { withdrawnBy } : {},
      );
      withdrawn.push(entry.id);
    }
    return withdrawn;
  }

  async pendingCount(requestedBy: string): Promise<number> {
    let count = 0;
    for (const entry of this.#entries.values())
      if (entry.status === 'pending' && entry.requestedBy === requestedBy) count++;
    return count;
  }

  async reopen(id: string): Promise<void> {
    const entry = this.#entries.get(id);
    if (!entry) return;
    entry.status = 'pending';
    delete entry.decidedBy;
    delete entry.decidedAt;
    delete entry.reason;
    delete entry.withdrawnBy;
    delete entry.withdrawnAt;
  }
}
