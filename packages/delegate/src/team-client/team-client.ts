import { randomUUID } from 'node:crypto';
import { type Message, type Task, TaskState, taskStateToJSON } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { ApprovalRequest } from '@switchboard/agent';
import {
  AdminErrorBody,
  ApprovalList,
  type BoardApproval,
  DecisionReply,
  sendMessageRequest,
  userMessage,
} from '@switchboard/protocol';
import { z } from 'zod';
import { DelegateError } from '../errors.ts';

/** A task state as users read and scripts compare it: `completed`, `input-required`, … */
export type TaskStateName =
  | 'submitted'
  | 'working'
  | 'completed'
  | 'failed'
  | 'canceled'
  | 'input-required'
  | 'rejected'
  | 'auth-required'
  | 'unknown';

/** The readable name of an SDK `TaskState` (`TASK_STATE_INPUT_REQUIRED` → `input-required`). */
export function stateName(state: TaskState | undefined): TaskStateName {
  if (state === undefined || state === TaskState.TASK_STATE_UNSPECIFIED || state === TaskState.UNRECOGNIZED)
    return 'unknown';
  return taskStateToJSON(state)
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-') as TaskStateName;
}

/** The text parts of a message, joined by newlines. */
export function textOf(message: Message | undefined): string {
  return (message?.parts ?? [])
    .flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : []))
    .join('\n');
}

const PendingApprovals = z.object({ pendingApprovals: z.array(ApprovalRequest) });

/** A reply of the team to one message, in plain values. */
export interface TeamReply {
  taskId: string;
  contextId: string;
  state: TaskStateName;
  /** The answer (the `answer` artifact), else the latest status message's text. */
  text: string;
  /** The dangerous actions the task waits on an operator for (state `input-required`). */
  pendingApprovals: ApprovalRequest[];
}

/** What a task says, as a {@link TeamReply}. */
function replyOf(task: Task): TeamReply {
  const status = task.status?.message;
  const answer = task.artifacts
    .filter((artifact) => artifact.name === 'answer' || task.artifacts.length === 1)
    .flatMap((artifact) => artifact.parts)
    .flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : []))
    .join('\n');
  const pendingApprovals = (status?.parts ?? []).flatMap((part) => {
    if (part.content?.$case !== 'data') return [];
    const parsed = PendingApprovals.safeParse(part.content.value);
    return parsed.success ? parsed.data.pendingApprovals : [];
  });
  return {
    taskId: task.id,
    contextId: task.contextId,
    state: stateName(task.status?.state),
    text: answer || textOf(status),
    pendingApprovals,
  };
}

/** Options of {@link connectTeam} and {@link operatorOf}. */
export interface TeamClientOptions {
  /** The supervisor's base URL, e.g. `running.access.supervisorUrl`. */
  url: string;
  /** A user's bearer token (for {@link operatorOf}, an operator's). */
  token: string;
  /** Default: the global `fetch`. */
  fetchImpl?: typeof fetch;
}

/** A user's conversation with a team (see {@link connectTeam}). */
export interface TeamClient {
  /** Sends one message and waits for the task to finish or to wait for someone. */
  ask(text: string, options?: { contextId?: string }): Promise<TeamReply>;
  /** Where a task stands now. */
  task(taskId: string): Promise<TeamReply>;
  /** The SDK's own client, for streaming and everything else. */
  readonly a2a: Client;
}

/** `fetch` with the bearer token on every request. */
const withToken =
  (token: string, fetchImpl: typeof fetch): typeof fetch =>
  (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('Authorization', `Bearer ${token}`);
    return fetchImpl(input, { ...init, headers });
  };

/**
 * A team as its user talks to it: the A2A SDK's client of the supervisor, from its card, with the
 * user's token on every request, and replies in plain values. What a team's own tests use.
 *
 * @example
 * const team = await connectTeam({ url: running.access.supervisorUrl, token: running.access.token });
 * const reply = await team.ask('Show my tickets.');
 * // reply.state === 'completed', reply.text: the answer
 */
export async function connectTeam({ url, token, fetchImpl = fetch }: TeamClientOptions): Promise<TeamClient> {
  const send = withToken(token, fetchImpl);
  const a2a = await new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl: send })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl: send }),
  }).createFromUrl(url);
  return {
    a2a,
    ask: async (text, { contextId = randomUUID() } = {}) => {
      const result = await a2a.sendMessage(sendMessageRequest({ message: userMessage({ text, contextId }) }));
      if (!('status' in result))
        return { taskId: '', contextId, state: 'completed', text: textOf(result), pendingApprovals: [] };
      return replyOf(result);
    },
    task: async (taskId) => replyOf(await a2a.getTask({ tenant: '', id: taskId, historyLength: 0 })),
  };
}

/** A team's approval board as its operator works it (see {@link operatorOf}). */
export interface TeamOperator {
  /** The approvals with this status (default `pending`). */
  approvals(status?: 'pending' | 'decided' | 'all'): Promise<BoardApproval[]>;
  /** Approves a pending approval: the action runs, once. Resolves with the approval as decided. */
  approve(id: string, reason?: string): Promise<BoardApproval>;
  /** Denies a pending approval: the action does not run. */
  deny(id: string, reason?: string): Promise<BoardApproval>;
}

/**
 * The operator's side of a team: its supervisor's admin API (`/admin/approvals`) with an operator's
 * token. A refusal throws `DelegateError` `BAD_REPLY` with the server's message.
 *
 * @example
 * const operator = operatorOf({ url: running.access.supervisorUrl, token: running.access.adminToken });
 * const [pending] = await operator.approvals();
 * await operator.approve(pending.id, 'checked');
 */
export function operatorOf({ url, token, fetchImpl = fetch }: TeamClientOptions): TeamOperator {
  const send = withToken(token, fetchImpl);
  const call = async <T>(path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> => {
    const response = await send(new URL(path, url.endsWith('/') ? url : `${url}/`), {
      method: body === undefined ? 'GET' : 'POST',
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
    });
    const json: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const refused = AdminErrorBody.safeParse(json);
      throw new DelegateError('BAD_REPLY', {
        message: `The supervisor refused ${path} (${response.status}): ${refused.success ? refused.data.error.message : 'no reason given'}`,
      });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new DelegateError('BAD_REPLY', { message: `The supervisor's reply to ${path} is not valid.` });
    return parsed.data;
  };
  const decide = async (id: string, decision: 'approve' | 'deny', reason?: string) =>
    (
      await call(
        `admin/approvals/${encodeURIComponent(id)}/${decision}`,
        DecisionReply,
        reason ? { reason } : {},
      )
    ).approval;
  return {
    approvals: async (status = 'pending') =>
      (await call(`admin/approvals?status=${status}`, ApprovalList)).approvals,
    approve: (id, reason) => decide(id, 'approve', reason),
    deny: (id, reason) => decide(id, 'deny', reason),
  };
}
