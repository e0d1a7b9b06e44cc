import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Message, type Part, type Task, TaskState, taskStateToJSON } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { ApprovalList, type BoardApproval, sendMessageRequest, userMessage } from '@switchboard/protocol';

/** Where the supervisor's task stands after a turn. */
export interface TurnOutcome {
  taskId: string | undefined;
  /** `completed`, `input-required`, `failed`, ... (`unknown` when there is no task). */
  state: string;
  /** The answer artifact's text, else the status message's text. */
  answer: string;
}

/** An approval on the supervisor's board (`GET /admin/approvals`). */
export type BoardEntry = BoardApproval;

/** Options of {@link SupervisorDriver.connect}. */
export interface SupervisorDriverOptions {
  /** The supervisor's base URL. */
  url: string;
  /** A user's bearer token, for A2A calls. */
  token: string;
  /** An operator's token, for the admin API (approve and deny turns). */
  adminToken: string;
  /** Aborts every request and wait (the case's timeout). */
  signal: AbortSignal;
}

const WORKING = new Set(['submitted', 'working', 'unknown']);
const WAITING = new Set(['input-required', 'auth-required']);

/** `TASK_STATE_INPUT_REQUIRED` → `input-required`. */
export function stateName(state: TaskState | undefined): string {
  if (state === undefined || state === TaskState.TASK_STATE_UNSPECIFIED || state === TaskState.UNRECOGNIZED)
    return 'unknown';
  return taskStateToJSON(state)
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-');
}

const textOfParts = (parts: readonly Part[] | undefined) =>
  (parts ?? []).flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : [])).join('\n');

/** A task's answer: the artifact named `answer`, else its status message. */
export function answerOfTask(task: Task): string {
  const artifact = task.artifacts.find((item) => item.name === 'answer') ?? task.artifacts[0];
  const answer = artifact ? textOfParts(artifact.parts) : '';
  return answer || textOfParts(task.status?.message?.parts);
}

/** The ids of the approvals a waiting task's status message asks for. */
function pendingIdsOf(task: Task): string[] {
  const ids: string[] = [];
  for (const part of task.status?.message?.parts ?? []) {
    if (part.content?.$case !== 'data') continue;
    const value = part.content.value as { pendingApprovals?: { id?: unknown }[] } | undefined;
    for (const approval of value?.pendingApprovals ?? [])
      if (typeof approval.id === 'string') ids.push(approval.id);
  }
  return ids;
}

function outcomeOf(task: Task): TurnOutcome {
  return { taskId: task.id, state: stateName(task.status?.state), answer: answerOfTask(task) };
}

/**
 * Talks to a supervisor as a user and an operator would: sends the user's turns in one conversation
 * (its `contextId`) with the A2A SDK client, and decides approvals through the admin API, then waits
 * for the resumed task.
 */
export class SupervisorDriver {
  /** The conversation every turn is sent in. */
  readonly contextId = randomUUID();
  readonly #client: Client;
  readonly #o: SupervisorDriverOptions;

  private constructor(client: Client, options: SupervisorDriverOptions) {
    this.#client = client;
    this.#o = options;
  }

  /** Connects to the supervisor (reads its agent card). */
  static async connect(options: SupervisorDriverOptions): Promise<SupervisorDriver> {
    const fetchImpl: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('Authorization', `Bearer ${options.token}`);
      return fetch(input, { ...init, headers, signal: init?.signal ?? options.signal });
    };
    const client = await new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }).createFromUrl(options.url);
    return new SupervisorDriver(client, options);
  }

  /** Sends what the user says and waits until the task stops working. */
  async say(text: string): Promise<TurnOutcome> {
    const result = await this.#client.sendMessage(
      sendMessageRequest({ message: userMessage({ text, contextId: this.contextId }) }),
      { signal: this.#o.signal },
    );
    if (!('status' in result)) {
      return { taskId: undefined, state: 'completed', answer: textOfParts((result as Message).parts) };
    }
    const task = result as Task;
    if (!WORKING.has(stateName(task.status?.state))) return outcomeOf(task);
    return this.settle({ taskId: task.id, decided: [] });
  }

  /** The approvals of this conversation that wait for a decision. */
  async pendingApprovals(): Promise<BoardEntry[]> {
    const reply = await this.#admin('GET', '/admin/approvals?status=pending');
    const list = ApprovalList.parse(reply);
    return list.approvals.filter((approval) => approval.contextId === this.contextId);
  }

  /** Approves or denies one approval (the supervisor resumes its task). */
  async decide({
    id,
    decision,
    reason,
  }: {
    id: string;
    decision: 'approve' | 'deny';
    reason?: string | undefined;
  }): Promise<void> {
    await this.#admin(
      'POST',
      `/admin/approvals/${encodeURIComponent(id)}/${decision}`,
      reason ? { reason } : {},
    );
  }

  /**
   * Polls the task until it has settled: finished, or waiting on something other than the
   * approvals just decided.
   */
  async settle({ taskId, decided }: { taskId: string; decided: readonly string[] }): Promise<TurnOutcome> {
    for (;;) {
      const task = await this.#client.getTask(
        { tenant: '', id: taskId, historyLength: 0 },
        { signal: this.#o.signal },
      );
      const state = stateName(task.status?.state);
      const stillOnDecided = WAITING.has(state) && pendingIdsOf(task).some((id) => decided.includes(id));
      if (!WORKING.has(state) && !stillOnDecided) return outcomeOf(task);
      await sleep(100, undefined, { signal: this.#o.signal });
    }
  }

  async #admin(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.#o.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${this.#o.adminToken}`,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: this.#o.signal,
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(`${method} ${path} answered HTTP ${response.status}: ${text.slice(0, 300)}`);
    }
    return JSON.parse(text) as unknown;
  }
}
