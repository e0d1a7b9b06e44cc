import type { AgentCard } from '@a2a-js/sdk';
import {
  type A2ARequestHandler,
  DefaultExecutionEventBusManager,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type OwnerResolver,
  type TaskStore,
} from '@a2a-js/sdk/server';
import type { Tracer } from '@opentelemetry/api';
import type { Logger } from '@switchboard/agent';
import type { RedisConnection } from '@switchboard/redis';
import type { ApprovalBoard } from './approvals/approval-board.ts';
import type { SwitchboardAgentExecutor } from './executor/agent-executor.ts';
import type { ExecutorTap } from './executor/executor-tap.ts';
import { concealInternalErrors } from './middleware/conceal-errors/conceal-errors.ts';
import { deduplicateMessages } from './middleware/deduplicate/deduplicate-messages.ts';
import { followTaskEvents } from './middleware/follow-events/follow-task-events.ts';
import type { LimitCounters } from './middleware/limits/limit-counters.ts';
import { limitRequests } from './middleware/limits/limit-requests.ts';
import { boundRequestIds } from './middleware/limits/request-ids.ts';
import type { HostLimits } from './middleware/limits/request-limits.ts';
import { logRefusals } from './middleware/log-refusals/log-refusals.ts';
import { refusePushSettings } from './middleware/push-settings/refuse-push-settings.ts';
import { tracedRequestHandler } from './middleware/trace/traced-request-handler.ts';
import { withdrawApprovalsOnCancel } from './middleware/withdraw-approvals/withdraw-on-cancel.ts';
import { RedisEventBusManager } from './tasks/redis-event-bus-manager.ts';
import type { RedisTaskEventLog } from './tasks/task-event-log.ts';

/*
 * The handler layers of a hosted agent, outermost first: the one place their order is written.
 *
 *   HTTP:   logRefusals → concealInternalErrors → boundRequestIds → refusePushSettings → limitRequests
 *           → tracedRequestHandler → withdrawApprovalsOnCancel → followTaskEvents → SDK handler
 *   queue:  logRefusals → concealInternalErrors → boundRequestIds → refusePushSettings
 *           → deduplicateMessages → limitRequests → tracedRequestHandler → withdrawApprovalsOnCancel
 *           → followTaskEvents → SDK handler
 *
 * - logRefusals, outermost on both: each refusal one line without a stack, repeats summed up.
 * - concealInternalErrors: no unexpected error reaches a caller verbatim.
 * - boundRequestIds (the limits layer's id bounds): ids, tenant and extension URIs of every call are
 *   strings of bounded size without control characters, before anything keys, stores or traces them
 *   (the redelivery check's key holds the message id).
 * - refusePushSettings: a message asking for push notifications the card does not offer is refused
 *   (the SDK would drop the setting silently).
 * - deduplicateMessages, queue only: a message the queue delivers twice runs once, so a redelivery is
 *   not counted against the caller's limits either.
 * - limitRequests: size, rate and tasks in flight per caller, before any work.
 * - tracedRequestHandler: each call a SERVER span named after its A2A method.
 * - withdrawApprovalsOnCancel, with a board: a canceled task's pending approvals are withdrawn.
 * - followTaskEvents, with an event log: SubscribeToTask follows a task from any replica.
 * - the SDK's DefaultRequestHandler over the task store and the executor (wrapped by a tap, if any).
 */

/** Options of {@link agentLayers}: the innermost layers, shared by every binding. */
export interface AgentLayersOptions {
  card: AgentCard;
  executor: SwitchboardAgentExecutor;
  taskStore?: TaskStore | undefined;
  ownerResolver?: OwnerResolver | undefined;
  eventLog?: RedisTaskEventLog | undefined;
  requestTracer?: Tracer | undefined;
  tap?: ExecutorTap | undefined;
  /** The approval board the executor keeps; a canceled task's pending approvals are withdrawn on it. */
  approvals?: ApprovalBoard | undefined;
  logger?: Logger | undefined;
}

/** The SDK's request handler over the task store and the executor, followed and traced. */
export function agentLayers({
  card,
  executor,
  taskStore,
  ownerResolver,
  eventLog,
  requestTracer,
  tap,
  approvals,
  logger,
}: AgentLayersOptions): A2ARequestHandler {
  const handler = new DefaultRequestHandler(
    card,
    taskStore ?? new InMemoryTaskStore(ownerResolver),
    tap ? tap.wrap(executor) : executor,
    eventLog
      ? new RedisEventBusManager({ log: eventLog, ...(ownerResolver ? { ownerResolver } : {}) })
      : new DefaultExecutionEventBusManager(ownerResolver),
  );
  const followed = eventLog ? followTaskEvents({ handler, log: eventLog }) : handler;
  const withdrawing =
    approvals && logger
      ? withdrawApprovalsOnCancel({ handler: followed, board: approvals, logger })
      : followed;
  return tracedRequestHandler(withdrawing, {
    agentName: card.name,
    ...(requestTracer ? { tracer: requestTracer } : {}),
  });
}

/** Options of {@link bindingLayers}. */
export interface BindingLayersOptions {
  /** The agent's handler, from {@link agentLayers}. */
  handler: A2ARequestHandler;
  limits: Omit<HostLimits, 'counters'>;
  counters: LimitCounters;
  /** The queue the agent is served on too, whose redeliveries are told apart. */
  queue?: { redis: RedisConnection; prefix: string } | undefined;
  logger: Logger;
  /** How long repeated refusals are summed up (default 60 s). */
  refusalSummaryMs?: number | undefined;
}

/** The outer layers of each binding around the agent's handler: what HTTP and the queue serve. */
export function bindingLayers({
  handler,
  limits,
  counters,
  queue,
  logger,
  refusalSummaryMs,
}: BindingLayersOptions): {
  http: A2ARequestHandler;
  queue: A2ARequestHandler | undefined;
  /** Writes the refusals still being summed up; once, when the host closes. */
  close(): void;
} {
  const { ids, ...perCaller } = limits;
  const limited = limitRequests({ handler, limits: perCaller, counters, logger });
  const bounded = (inner: A2ARequestHandler) =>
    boundRequestIds({ handler: refusePushSettings({ handler: inner }), limits: ids });
  const refusals = (inner: A2ARequestHandler) =>
    logRefusals({ handler: inner, logger, ...(refusalSummaryMs ? { summaryMs: refusalSummaryMs } : {}) });
  const http = refusals(concealInternalErrors({ handler: bounded(limited), logger }));
  const queued = queue
    ? refusals(
        concealInternalErrors({
          handler: bounded(
            deduplicateMessages({
              handler: limited,
              redis: queue.redis,
              prefix: queue.prefix,
              logger,
            }),
          ),
          logger,
        }),
      )
    : undefined;
  return {
    http: http.handler,
    queue: queued?.handler,
    close: () => {
      http.close();
      queued?.close();
    },
  };
}
