import type { ServerCallContext } from '@a2a-js/sdk/server';

/**
 * How a request reached the request handler: the BullMQ job that carried it. Delivery is at least
 * once: when a worker dies holding a job, BullMQ hands the same job (same `jobId`) to another
 * worker once its lock expires, and the request is handled again. A delivery policy (a request
 * handler decorator) reads this to make that safe, e.g. to run each message once.
 */
export interface QueueDelivery {
  /** The job's id: the same on every delivery of one job, different for a request sent twice. */
  readonly jobId: string;
  /** The queue the job came from. */
  readonly queue: string;
  /**
   * How long the job waited on the queue before this delivery began, in milliseconds: from when it
   * was added (BullMQ's `timestamp`, its delay included) to when a worker took it (`processedOn`); 0
   * when BullMQ did not say. A redelivered job counts from when it was first added.
   */
  readonly queueWaitMs: number;
  /**
   * Keeps the job active until `work` settles, after its reply has gone: for work a request
   * handler goes on with once it has answered (a task answered at once, `returnImmediately`). The
   * worker keeps the job's lock meanwhile, so if it dies the job is delivered again, as it would be
   * had the answer waited for the work. What `work` rejects with is not the job's concern: a
   * failure the request handler meant to report, it reports itself.
   */
  keepActiveUntil(work: Promise<unknown>): void;
}

/** The {@link QueueDelivery} of one job, and what it was asked to wait for. */
export class JobDelivery implements QueueDelivery {
  readonly jobId: string;
  readonly queue: string;
  readonly queueWaitMs: number;
  readonly #work: Promise<unknown>[] = [];

  constructor({ jobId, queue, queueWaitMs = 0 }: { jobId: string; queue: string; queueWaitMs?: number }) {
    this.jobId = jobId;
    this.queue = queue;
    this.queueWaitMs = queueWaitMs;
  }

  keepActiveUntil(work: Promise<unknown>): void {
    this.#work.push(work.catch(() => undefined));
  }

  /** Settles once everything passed to `keepActiveUntil` (even while waiting) has settled. */
  async settled(): Promise<void> {
    let seen = 0;
    while (seen < this.#work.length) {
      const batch = this.#work.slice(seen);
      seen += batch.length;
      await Promise.all(batch);
    }
  }
}

const DELIVERY_KEY = 'switchboard.a2a.bullmq.delivery';

/**
 * The delivery of a request that came over the queue; undefined for one that came another way
 * (HTTP, gRPC), so a decorator can serve every binding and act on queued requests only.
 *
 * @example
 * // In a request handler decorator: a job seen before is a redelivery (its first worker died).
 * sendMessage(params, context) {
 *   const delivery = queueDeliveryOf(context);
 *   if (delivery && jobsSeen.has(delivery.jobId)) logger.warn({ jobId: delivery.jobId }, 'redelivered');
 *   if (delivery) jobsSeen.add(delivery.jobId);
 *   return inner.sendMessage(params, context);
 * }
 */
export function queueDeliveryOf(context: ServerCallContext): QueueDelivery | undefined {
  return context.state.get(DELIVERY_KEY) as QueueDelivery | undefined;
}

/** Records how a request arrived, for {@link queueDeliveryOf}. */
export function setQueueDelivery(context: ServerCallContext, delivery: QueueDelivery): void {
  context.state.set(DELIVERY_KEY, delivery);
}

/**
 * @deprecated The hook is hosting's contract between a delivery policy and its executor, and moved to
 * `@switchboard/host` (`TASK_STARTED_HOOK`, the same key); this copy goes in the next release.
 *
 * A `ServerCallContext.state` key: a delivery policy puts a {@link TaskStartedHook} there to learn
 * which task a request started, and an agent executor that supports it calls the hook once the
 * task id is known, before the work begins. With it, a redelivered job can continue the task its
 * first delivery started instead of starting another.
 *
 * @example
 * // In an AgentExecutor's execute():
 * const started = requestContext.context.state.get(TASK_STARTED_HOOK) as TaskStartedHook | undefined;
 * await started?.({ taskId, contextId, messageId: requestContext.userMessage.messageId });
 */
export const TASK_STARTED_HOOK = 'switchboard.a2a.taskStarted';

/** @deprecated Moved to `@switchboard/host` with {@link TASK_STARTED_HOOK}. Called once a request's task id is known, before the agent runs. */
export type TaskStartedHook = (started: {
  taskId: string;
  contextId: string;
  messageId: string;
}) => Promise<void>;
