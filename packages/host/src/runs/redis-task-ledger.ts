import { type Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';
import type { Logger } from '@switchboard/agent';
import { agentMessage, setCallVariable, textPart } from '@switchboard/protocol';
import { type RedisConnection, scanKeys } from '@switchboard/redis';
import { ACTING_FOR } from '../approvals/acting-for.ts';
import { HostError } from '../errors.ts';
import type { LedgerEntry, TaskLedger } from './task-ledger.ts';

/** Options of {@link RedisTaskLedger}. */
export interface RedisTaskLedgerOptions {
  redis: RedisConnection;
  /** The agent's key prefix, e.g. `{switchboard:supervisor}`. */
  prefix: string;
  /** This process, unique per run (a new one after a restart). */
  instanceId: string;
  /** A process is dead when it has not refreshed its mark for this long (default 15 000 ms). */
  ttlMs?: number;
  logger: Logger;
}

/**
 * The task ledger on Redis: one hash per process of the tasks it runs, a mark it refreshes while
 * it lives, and the set of processes that have a hash. `sweep` fails the tasks of processes whose
 * mark expired (crashed, killed), with a message saying so, so such a task never stays "working"
 * for ever. A sweep reads that set, never the keyspace, so it costs the same however big Redis is.
 */
export class RedisTaskLedger implements TaskLedger {
  readonly #o: Required<RedisTaskLedgerOptions>;
  #timer: NodeJS.Timeout | undefined;
  #listed = false;

  constructor({ ttlMs = 15_000, ...options }: RedisTaskLedgerOptions) {
    if (!options.redis || !options.prefix || !options.instanceId) {
      throw new HostError('INVALID_OPTIONS', {
        message: 'RedisTaskLedger needs a redis connection, a key prefix and this process’s instance id.',
      });
    }
    this.#o = { ttlMs, ...options };
  }

  #tasks(instanceId: string) {
    return `${this.#o.prefix}:ledger:${instanceId}`;
  }

  #alive(instanceId: string) {
    return `${this.#o.prefix}:alive:${instanceId}`;
  }

  /** The processes that have (or had) a hash of tasks. */
  get #instances() {
    return `${this.#o.prefix}:ledgers`;
  }

  /**
   * How long the list outlives the last process that refreshed it: when every replica is gone it
   * goes too, and the next one to start lists the hashes left behind again (`#adoptUnlisted`).
   */
  get #listTtlMs() {
    return Math.max(this.#o.ttlMs * 20, 60_000);
  }

  async begin({ taskId, ...entry }: LedgerEntry): Promise<void> {
    const { redis, instanceId } = this.#o;
    const record = JSON.stringify({ taskId, ...entry });
    if (this.#listed) {
      await redis.hset(this.#tasks(instanceId), taskId, record);
      return;
    }
    await redis
      .multi()
      .sadd(this.#instances, instanceId)
      .pexpire(this.#instances, this.#listTtlMs)
      .hset(this.#tasks(instanceId), taskId, record)
      .exec();
    this.#listed = true;
  }

  async end(taskId: string): Promise<void> {
    await this.#o.redis.hdel(this.#tasks(this.#o.instanceId), taskId);
  }

  /** Marks this process alive now and every third of the TTL, and sweeps each time; `stop` ends it. */
  async start(taskStore: TaskStore): Promise<void> {
    const { redis, instanceId, ttlMs } = this.#o;
    const tick = async () => {
      // Listed again each time: a sweeper that took this process for dead has unlisted it.
      await redis
        .multi()
        .set(this.#alive(instanceId), '1', 'PX', ttlMs)
        .sadd(this.#instances, instanceId)
        .pexpire(this.#instances, this.#listTtlMs)
        .exec();
      this.#listed = true;
      await this.sweep(taskStore);
    };
    await this.#adoptUnlisted();
    await tick();
    this.#timer = setInterval(
      () => {
        tick().catch((error: unknown) => this.#o.logger.warn({ err: error }, 'task ledger tick failed'));
      },
      Math.max(250, Math.floor(this.#o.ttlMs / 3)),
    );
    this.#timer.unref();
  }

  /**
   * Stops the heartbeat. The process's record goes too when it runs no task any more; tasks still
   * recorded (a drain that ran out of time) are left for another process's sweep to fail.
   */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    const { redis, instanceId } = this.#o;
    await redis.del(this.#alive(instanceId));
    if ((await redis.hlen(this.#tasks(instanceId))) === 0) {
      await redis.multi().del(this.#tasks(instanceId)).srem(this.#instances, instanceId).exec();
    }
  }

  /**
   * Lists the hashes written before the ledger kept its set of processes (a one-time SCAN when a
   * process starts), so the tasks of a process that died before an upgrade are still failed.
   */
  async #adoptUnlisted(): Promise<void> {
    const { redis, prefix } = this.#o;
    for await (const keys of scanKeys(redis, `${prefix}:ledger:*`)) {
      const ids = keys.map((key) => key.slice(`${prefix}:ledger:`.length));
      if (ids.length > 0) await redis.sadd(this.#instances, ...ids);
    }
  }

  /** Fails the unfinished tasks of dead processes; returns the ids it failed. */
  async sweep(taskStore: TaskStore): Promise<string[]> {
    const { redis, logger } = this.#o;
    const failed: string[] = [];
    const others = (await redis.smembers(this.#instances)).filter((id) => id !== this.#o.instanceId);
    for (const instanceId of others) {
      if (await redis.exists(this.#alive(instanceId))) continue;
      const key = this.#tasks(instanceId);
      const failedHere: string[] = [];
      for (const raw of Object.values(await redis.hgetall(key))) {
        const entry = JSON.parse(raw) as LedgerEntry;
        if (await this.#fail(taskStore, entry)) failedHere.push(entry.taskId);
      }
      await redis.multi().del(key).srem(this.#instances, instanceId).exec();
      failed.push(...failedHere);
      if (failedHere.length > 0) {
        logger.warn(
          { instanceId, failed: failedHere },
          'tasks of a process that stopped without finishing them were failed',
        );
      }
    }
    return failed;
  }

  async #fail(taskStore: TaskStore, { taskId, contextId, owner, tenant }: LedgerEntry): Promise<boolean> {
    const context = new ServerCallContext({ ...(tenant ? { tenant } : {}) });
    setCallVariable(context, ACTING_FOR, owner);
    const task: Task | undefined = await taskStore.load(taskId, context);
    if (!task || !ACTIVE.has(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)) return false;
    task.status = {
      state: TaskState.TASK_STATE_FAILED,
      message: agentMessage({
        taskId,
        contextId,
        parts: [
          textPart(
            'The service restarted while it was working on this request, so it was stopped before it finished. Nothing further will happen on it; please ask again.',
          ),
        ],
      }),
      timestamp: new Date().toISOString(),
    };
    await taskStore.save(task, context);
    return true;
  }
}

const ACTIVE = new Set([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]);
