// Serving an agent: hostAgent (the one composition), createAgentHandler and the executor under it with
// its ports, the card it publishes, the request limits, the handler layers and the errors. The parts a
// user picks separately have their own entry points: /http, /redis and /approvals.

export type { AgentHandler, AgentHandlerOptions } from './agent-handler.ts';
export { createAgentHandler } from './agent-handler.ts';
export type { BuildAgentCardOptions, CardInterface } from './card/build-card.ts';
export { buildAgentCard } from './card/build-card.ts';
export type { CostBook, CostDay, CostEntry } from './costs/cost-book.ts';
export {
  costDayOf,
  MAX_BOOK_AGENTS,
  MAX_BOOK_DAYS,
  MemoryCostBook,
} from './costs/cost-book.ts';
export type { HostedAgent, HostedAgentOptions } from './deprecated.ts';
export { createHostedAgent } from './deprecated.ts';
export type { HostErrorCode } from './errors.ts';
export { HOST_ERRORS, HostError } from './errors.ts';
export type { AgentExecutorOptions } from './executor/agent-executor.ts';
export { SwitchboardAgentExecutor } from './executor/agent-executor.ts';
export type { TaskStartedHook } from './executor/task-started.ts';
export { TASK_STARTED_HOOK } from './executor/task-started.ts';
export type {
  AgentHost,
  HostAgentOptions,
  HostAuth,
  HostStores,
} from './host-agent.ts';
export { hostAgent } from './host-agent.ts';
export { concealInternalErrors, InternalServerError } from './middleware/conceal-errors/conceal-errors.ts';
export type { DeduplicateMessagesOptions } from './middleware/deduplicate/deduplicate-messages.ts';
export { deduplicateMessages } from './middleware/deduplicate/deduplicate-messages.ts';
export type { FollowTaskEventsOptions } from './middleware/follow-events/follow-task-events.ts';
export { followTaskEvents } from './middleware/follow-events/follow-task-events.ts';
export type { LimitCounters, WindowCount } from './middleware/limits/limit-counters.ts';
export { MemoryLimitCounters } from './middleware/limits/limit-counters.ts';
export type { LimitName } from './middleware/limits/limit-errors.ts';
export { TOO_MANY_REQUESTS_REASON, TooManyRequestsError } from './middleware/limits/limit-errors.ts';
export type { LimitRequestsOptions } from './middleware/limits/limit-requests.ts';
export { limitRequests } from './middleware/limits/limit-requests.ts';
export { messageContentBytes } from './middleware/limits/message-size.ts';
export type { RedisLimitCountersOptions } from './middleware/limits/redis-limit-counters.ts';
export { RedisLimitCounters } from './middleware/limits/redis-limit-counters.ts';
export type { IdLimitName, IdLimits } from './middleware/limits/request-ids.ts';
export { boundRequestIds, DEFAULT_ID_LIMITS } from './middleware/limits/request-ids.ts';
export type { HostLimits, RequestLimits } from './middleware/limits/request-limits.ts';
export { DEFAULT_REQUEST_LIMITS } from './middleware/limits/request-limits.ts';
export type { LogRefusalsOptions, RefusalLoggingHandler } from './middleware/log-refusals/log-refusals.ts';
export {
  DEFAULT_REFUSAL_SUMMARY_MS,
  logRefusals,
  wasLoggedByHost,
} from './middleware/log-refusals/log-refusals.ts';
export type { RunState, RunStateStore } from './runs/run-state-store.ts';
export { MemoryRunStateStore } from './runs/run-state-store.ts';
export type { LedgerEntry, StartableTaskLedger, TaskLedger } from './runs/task-ledger.ts';
export { LAST_EVENT_ID, LAST_EVENT_ID_QUERY } from './tasks/event-position.ts';
