import type { StreamResponse } from '@a2a-js/sdk';
import {
  type AgentExecutionEvent,
  DefaultExecutionEventBusManager,
  type ExecutionEventBus,
  type ExecutionEventBusManager,
  type OwnerResolver,
  type ServerCallContext,
} from '@a2a-js/sdk/server';
import { endsStream } from './event-position.ts';
import type { RedisTaskEventLog } from './task-event-log.ts';

/** Options of {@link RedisEventBusManager}. */
export interface RedisEventBusManagerOptions {
  /** Where every task event is appended. */
  log: RedisTaskEventLog;
  /** Scopes the local buses as the task store scopes tasks (default: the SDK's, by user name). */
  ownerResolver?: OwnerResolver;
}

/** The longest time between two refreshes of a stream's expiry while its task runs. */
const REFRESH_EVERY_MS = 60_000;

/** The stream form of a task event; messages are answers to one request, not task events. */
function streamResponseOf(event: AgentExecutionEvent): StreamResponse | undefined {
  switch (event.kind) {
    case 'task':
      return { payload: { $case: 'task', value: event.data } };
    case 'statusUpdate':
      return { payload: { $case: 'statusUpdate', value: event.data } };
    case 'artifactUpdate':
      return { payload: { $case: 'artifactUpdate', value: event.data } };
    case 'message':
      return undefined;
  }
}

/**
 * The SDK's event-bus manager with every task event also appended to its task's Redis Stream (see
 * {@link RedisTaskEventLog}), so `SubscribeToTask` can follow the task from any replica. The replica
 * that runs a task still delivers each event to its own request synchronously, on the SDK's in-process
 * bus, and appends it to the stream from that bus's listener: one pipelined `XADD` per event (messages
 * excepted), plus a `PEXPIRE` on a run's first event, on its last, and at most once a minute between.
 *
 * @example
 * new DefaultRequestHandler(card, taskStore, executor, new RedisEventBusManager({ log }));
 */
export class RedisEventBusManager implements ExecutionEventBusManager {
  readonly #local: DefaultExecutionEventBusManager;
  readonly #log: RedisTaskEventLog;
  readonly #recorded = new WeakSet<ExecutionEventBus>();

  constructor({ log, ownerResolver }: RedisEventBusManagerOptions) {
    this.#local = new DefaultExecutionEventBusManager(ownerResolver);
    this.#log = log;
  }

  createOrGetByTaskId(taskId: string, context?: ServerCallContext): ExecutionEventBus {
    const bus = this.#local.createOrGetByTaskId(taskId, context);
    if (!this.#recorded.has(bus)) {
      this.#recorded.add(bus);
      bus.on('event', this.#recorder(taskId));
    }
    return bus;
  }

  getByTaskId(taskId: string, context?: ServerCallContext): ExecutionEventBus | undefined {
    return this.#local.getByTaskId(taskId, context);
  }

  cleanupByTaskId(taskId: string, context?: ServerCallContext): void {
    this.#local.cleanupByTaskId(taskId, context);
  }

  /** Appends each event of one bus, refreshing the stream's expiry now and then. */
  #recorder(taskId: string): (event: AgentExecutionEvent) => void {
    const refreshEveryMs = Math.min(REFRESH_EVERY_MS, this.#log.retentionMs / 4);
    let refreshedAt = Number.NEGATIVE_INFINITY;
    return (event) => {
      const response = streamResponseOf(event);
      if (!response) return;
      const now = Date.now();
      const refreshExpiry = endsStream(response) || now - refreshedAt >= refreshEveryMs;
      if (refreshExpiry) refreshedAt = now;
      this.#log.append(taskId, response, { refreshExpiry });
    };
  }
}
