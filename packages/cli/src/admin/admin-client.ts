import { Task } from '@a2a-js/sdk';
import {
  AdminErrorBody,
  type BoardApproval as Approval,
  ApprovalList,
  ApprovalReply,
  ApprovalTaskReply,
  DecisionReply,
} from '@switchboard/protocol';
import type { z } from 'zod';
import { type ResolvedSetting, resolveSettings } from '../config.ts';
import { CliError } from '../errors.ts';
import { supervisorFetch } from '../io/supervisor-fetch.ts';
import { newTrace } from '../trace-context.ts';

/** Options of {@link AdminClient}. */
export interface AdminClientOptions {
  url: ResolvedSetting;
  /** An operator's token (`SWITCHBOARD_ADMIN_TOKEN`). */
  token: ResolvedSetting;
  /** Sent on every request. */
  traceparent: string;
  /** Default: the global `fetch`. */
  fetchImpl?: typeof fetch;
}

/**
 * The supervisor's admin API (`{url}/admin`): lists approvals, shows one, and decides them. Replies
 * are validated; a refusal (400, 403, 404, 409) throws `CliError` `REFUSED` with the server's
 * message, a 401 `UNAUTHORIZED` naming `SWITCHBOARD_ADMIN_TOKEN`, a connection failure `UNREACHABLE`.
 */
export class AdminClient {
  readonly #url: ResolvedSetting;
  readonly #fetch: typeof fetch;

  constructor({ url, token, traceparent, fetchImpl = fetch }: AdminClientOptions) {
    this.#url = url;
    this.#fetch = supervisorFetch({ url, token, tokenLabel: 'admin token', traceparent, fetchImpl });
  }

  /**
   * Every approval with this status (default `pending`; `decided` are approved or denied ones),
   * oldest first, read a page at a time.
   */
  async list({ status = 'pending' }: { status?: 'pending' | 'decided' | 'all' } = {}): Promise<Approval[]> {
    const approvals: Approval[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.page({ status, cursor });
      approvals.push(...page.approvals);
      cursor = page.nextCursor;
    } while (cursor);
    return approvals;
  }

  /** One page of the approvals, oldest first, and the cursor of the next (absent on the last). */
  async page({
    status = 'pending',
    limit,
    cursor,
  }: {
    status?: 'pending' | 'decided' | 'all';
    limit?: number | undefined;
    cursor?: string | undefined;
  }): Promise<ApprovalList> {
    const query = new URLSearchParams({ status });
    if (limit !== undefined) query.set('limit', String(limit));
    if (cursor) query.set('cursor', cursor);
    return this.#call({ method: 'GET', path: `/admin/approvals?${query}`, schema: ApprovalList });
  }

  /** One approval, every argument of its call included. */
  async get(id: string): Promise<Approval> {
    const reply = await this.#call({
      method: 'GET',
      path: `/admin/approvals/${encodeURIComponent(id)}`,
      schema: ApprovalReply,
    });
    return reply.approval;
  }

  /**
   * One approval and the task that waits for it, read with the operator's token alone (the task's
   * owner's token is not needed).
   */
  async task(id: string): Promise<{ approval: Approval; task: Task }> {
    const reply = await this.#call({
      method: 'GET',
      path: `/admin/approvals/${encodeURIComponent(id)}/task`,
      schema: ApprovalTaskReply,
    });
    return { approval: reply.approval, task: Task.fromJSON(reply.task) };
  }

  /** Approves or denies a pending approval; the supervisor resumes its task (answers 202). */
  async decide({
    id,
    decision,
    reason,
  }: {
    id: string;
    decision: 'approve' | 'deny';
    reason?: string | undefined;
  }): Promise<DecisionReply> {
    return this.#call({
      method: 'POST',
      path: `/admin/approvals/${encodeURIComponent(id)}/${decision}`,
      body: reason ? { reason } : {},
      schema: DecisionReply,
    });
  }

  async #call<T>({
    method,
    path,
    body,
    schema,
  }: {
    method: 'GET' | 'POST';
    path: string;
    body?: unknown;
    schema: z.ZodType<T>;
  }): Promise<T> {
    const where = `${method} ${this.#url.value}${path}`;
    const response = await this.#fetch(`${this.#url.value}${path}`, {
      method,
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const error = AdminErrorBody.safeParse(json);
      if (error.success) throw new CliError('REFUSED', { message: error.data.error.message });
      throw new CliError('BAD_REPLY', {
        message: `${where} answered HTTP ${response.status} without an admin API error: is ${this.#url.value} (from ${this.#url.from}) a supervisor with the admin API?`,
      });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new CliError('BAD_REPLY', {
        message: `${where} answered in an unexpected shape: ${parsed.error.issues
          .slice(0, 5)
          .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`)
          .join('; ')}`,
      });
    }
    return parsed.data;
  }
}

/**
 * The admin client of a command that only reads the board: `--url` and `--token` (the admin token)
 * over `SWITCHBOARD_URL` and `SWITCHBOARD_ADMIN_TOKEN`, under a new trace.
 */
export async function connectAdmin({
  url,
  token,
  env,
}: {
  url?: string | undefined;
  token?: string | undefined;
  /** The command's environment (`SWITCHBOARD_URL`, `SWITCHBOARD_ADMIN_TOKEN`). */
  env: NodeJS.ProcessEnv;
}): Promise<AdminClient> {
  const settings = await resolveSettings({
    need: ['url', 'adminToken'],
    flags: { url: { value: url, flag: '--url' }, adminToken: { value: token, flag: '--token' } },
    env,
  });
  return new AdminClient({
    url: settings.url,
    token: settings.adminToken,
    traceparent: newTrace().traceparent,
  });
}
