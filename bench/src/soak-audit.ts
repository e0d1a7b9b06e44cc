/**
 * After a soak, what Redis says happened to each request: its supervisor tasks (in the contextId the
 * client chose), the worker tasks of its delegations, and every tool run recorded in their histories.
 *
 * A worker task belongs to a request when its contextId is the one `delegationTools` derives from the
 * supervisor's conversation (SHA-256 over the conversation id, the worker's name and, in newer
 * versions, the delegation's call id, read from the supervisor task's history), or when its request
 * message names the supervisor's conversation in `switchboard.callerConversation` (since the ids
 * derive from the principal too, as `<principal key>/<conversation>`).
 *
 * A request is duplicated when it has more than one supervisor task, more tasks at a worker than the
 * supervisor made delegation calls to it, or a tool call (same task, tool and call id) that started
 * more than once. Tasks that belong to no request are counted: the audit is incomplete then.
 */
import { createHash } from 'node:crypto';
import { type RedisConnection, scanKeys } from '@switchboard/redis';
import { z } from 'zod';

/** The parts of a stored task (`Task.toJSON`) the audit reads. */
const StoredTask = z.object({
  id: z.string(),
  contextId: z.string(),
  status: z.object({ state: z.string() }).partial().optional(),
  history: z
    .array(
      z.object({
        role: z.string().optional(),
        metadata: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .optional(),
});
type StoredTask = z.infer<typeof StoredTask>;

/** The message metadata key in which a delegating agent names its own conversation. */
const CALLER_CONVERSATION_KEY = 'switchboard.callerConversation';

/** What the audit keeps of a task. */
interface TaskSummary {
  id: string;
  contextId: string;
  state: string;
  /** The delegating conversation its request message names, if any. */
  callerConversation: string | undefined;
  /** Distinct tool calls started in its history. */
  toolCalls: { tool: string; callId: string }[];
  /** Tool calls that started more than once in its history: `tool#callId`. */
  repeatedRuns: string[];
}

const stableId = (...parts: string[]) =>
  createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);

/** What the audit found for the requests of one configuration. */
export interface Audit {
  /** Requests with more than one task or a repeated tool run; with the first few as examples. */
  duplicated: number;
  examples: string[];
  /** Tasks by agent and state, e.g. `orders TASK_STATE_COMPLETED` → 5000. */
  states: Map<string, number>;
  /** Tasks that belong to none of the requests (the audit could not attribute them). */
  unattributed: number;
  /** Requests the supervisor has no task for. */
  withoutSupervisorTask: number;
  /** Requests with no task at the worker they should have been delegated to. */
  withoutWorkerTask: number;
  /** Tasks read from Redis. */
  tasks: number;
}

function summarize(task: StoredTask): TaskSummary {
  const starts = new Map<string, { tool: string; callId: string; count: number }>();
  let callerConversation: string | undefined;
  for (const message of task.history ?? []) {
    const metadata = message.metadata ?? {};
    const caller = metadata[CALLER_CONVERSATION_KEY];
    if (message.role === 'ROLE_USER' && typeof caller === 'string') callerConversation ??= caller;
    if (metadata.event !== 'tool-started') continue;
    const tool = String(metadata.tool);
    const callId = String(metadata.callId);
    const key = `${tool}#${callId}`;
    const entry = starts.get(key);
    if (entry) entry.count++;
    else starts.set(key, { tool, callId, count: 1 });
  }
  return {
    id: task.id,
    contextId: task.contextId,
    state: task.status?.state ?? 'no state',
    callerConversation,
    toolCalls: [...starts.values()].map(({ tool, callId }) => ({ tool, callId })),
    repeatedRuns: [...starts].filter(([, { count }]) => count > 1).map(([key]) => key),
  };
}

async function loadTasks(redis: RedisConnection, prefix: string): Promise<TaskSummary[]> {
  const keys: string[] = [];
  for await (const page of scanKeys(redis, `${prefix}:task:*`)) keys.push(...page);
  const tasks: TaskSummary[] = [];
  for (let i = 0; i < keys.length; i += 500) {
    for (const raw of await redis.mget(keys.slice(i, i + 500))) {
      const parsed = raw ? StoredTask.safeParse(JSON.parse(raw)) : undefined;
      if (parsed?.success) tasks.push(summarize(parsed.data));
    }
  }
  return tasks;
}

function index<K>(tasks: readonly TaskSummary[], keyOf: (task: TaskSummary) => K | undefined) {
  const map = new Map<K, TaskSummary[]>();
  for (const task of tasks) {
    const key = keyOf(task);
    if (key === undefined) continue;
    const same = map.get(key);
    if (same) same.push(task);
    else map.set(key, [task]);
  }
  return map;
}

/**
 * Audits the tasks of `namespace` against the requests sent: each `{ contextId, agent }` is one
 * request to the supervisor that should have been delegated to `agent`.
 */
export async function auditTasks({
  redis,
  namespace,
  requests,
  workers,
}: {
  redis: RedisConnection;
  namespace: string;
  requests: readonly { contextId: string; agent: string }[];
  workers: readonly string[];
}): Promise<Audit> {
  const states = new Map<string, number>();
  const loaded = new Map<string, TaskSummary[]>();
  let tasks = 0;
  for (const agent of ['supervisor', ...workers]) {
    const summaries = await loadTasks(redis, `{${namespace}:${agent}}`);
    loaded.set(agent, summaries);
    tasks += summaries.length;
    for (const task of summaries) {
      const key = `${agent} ${task.state}`;
      states.set(key, (states.get(key) ?? 0) + 1);
    }
  }
  const supervisors = index(loaded.get('supervisor') ?? [], (task) => task.contextId);
  const byContext = new Map(
    workers.map((agent) => [agent, index(loaded.get(agent) ?? [], (t) => t.contextId)]),
  );
  // Newer delegations name the caller's conversation as `<principal key>/<contextId>`; the soak's
  // context ids are UUIDs, so what follows the last '/' is the request's.
  const byCaller = new Map(
    workers.map((agent) => [
      agent,
      index(loaded.get(agent) ?? [], (t) =>
        t.callerConversation?.slice(t.callerConversation.lastIndexOf('/') + 1),
      ),
    ]),
  );
  const audit: Audit = {
    duplicated: 0,
    examples: [],
    states,
    unattributed: 0,
    withoutSupervisorTask: 0,
    withoutWorkerTask: 0,
    tasks,
  };
  const attributed = new Set<string>();
  for (const { contextId, agent } of requests) {
    const problems: string[] = [];
    const own = supervisors.get(contextId) ?? [];
    for (const task of own) attributed.add(`supervisor/${task.id}`);
    if (own.length === 0) audit.withoutSupervisorTask++;
    if (own.length > 1) problems.push(`${own.length} supervisor tasks`);
    for (const task of own) {
      for (const run of task.repeatedRuns)
        problems.push(`supervisor task ${task.id} ran ${run} more than once`);
    }
    const calls = own.flatMap((task) => task.toolCalls);
    for (const worker of workers) {
      const delegations = calls.filter((call) => call.tool.startsWith(`${worker}_`));
      const contexts = [
        stableId(contextId, worker),
        ...delegations.map((call) => stableId(contextId, worker, call.callId)),
      ];
      const found = new Map<string, TaskSummary>();
      for (const task of [
        ...contexts.flatMap((context) => byContext.get(worker)?.get(context) ?? []),
        ...(byCaller.get(worker)?.get(contextId) ?? []),
      ]) {
        found.set(task.id, task);
      }
      for (const task of found.values()) attributed.add(`${worker}/${task.id}`);
      if (worker === agent && found.size === 0) audit.withoutWorkerTask++;
      if (found.size > Math.max(1, delegations.length)) {
        problems.push(`${found.size} ${worker} tasks for ${delegations.length} delegation calls`);
      }
      for (const task of found.values()) {
        for (const run of task.repeatedRuns)
          problems.push(`${worker} task ${task.id} ran ${run} more than once`);
      }
    }
    if (problems.length === 0) continue;
    audit.duplicated++;
    if (audit.examples.length < 5) audit.examples.push(`request ${contextId}: ${problems.join('; ')}`);
  }
  audit.unattributed = tasks - attributed.size;
  return audit;
}
