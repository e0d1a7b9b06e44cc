import { type Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';
import type { Logger } from '@switchboard/agent';
import type { Redis } from 'ioredis';
import { ACTING_FOR } from '../approvals/acting-for.ts';
import { A2aError } from '../errors.ts';
import type { LedgerEntry, TaskLedger } from '../executor/task-ledger.ts';
import { agentMessage, textPart } from '../protocol/messages.ts';

/** Options of {@link RedisTaskLedger}. */
export interface RedisTaskLedgerOptions {
  redis: Redis;
  /** The agent's key prefix, e.g. `{switchboard:supervisor}`. */
  prefix: string;
  /** This process, unique per run (a new one after a restart). */
  instanceId: string;
  /** A process is dead when it has not refreshed its mark for this long (default 15 000 ms). */
  ttlMs?: number;
  logger: Logger;
}

/**
 * The task ledger on Redis: one hash per process of the tasks it runs, and a mark it refreshes
 * while it lives. `sweep` fails the tasks of processes whose mark expired (crashed, killed), with
 * a message saying so, so such a task never stays "working" for ever.
 */
export class RedisTaskLedger implements TaskLedger {
  readonly #o: Required<RedisTaskLedgerOptions>;
  #timer: NodeJS.Timeout | undefined;

  constructor({ ttlMs = 15_000, ...options }: RedisTaskLedgerOptions) {
    if (!options.redis || !options.prefix || !options.instanceId) {
      throw new A2aError('INVALID_OPTIONS', {
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

  async begin({ taskId, ...entry }: LedgerEntry): Promise<void> {
    await this.#o.redis.hset(this.#tasks(this.#o.instanceId), taskId, JSON.stringify({ taskId, ...entry }));
  }

  async end(taskId: string): Promise<void> {
    await this.#o.redis.hdel(this.#tasks(this.#o.instanceId), taskId);
  }

  /** Marks this process alive now and every third of the TTL, and sweeps each time; `stop` ends it. */
  async start(taskStore: TaskStore): Promise<void> {
    const tick = async () => {
      await this.#o.redis.set(this.#alive(this.#o.instanceId), '1', 'PX', this.#o.ttlMs);
      await this.sweep(taskStore);
    };
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
    if ((await redis.hlen(this.#tasks(instanceId))) === 0) await redis.del(this.#tasks(instanceId));
  }

  /** Fails the unfinished tasks of dead processes; returns the ids it failed. */
  async sweep(taskStore: TaskStore): Promise<string[]> {
    const { redis, prefix, logger } = this.#o;
    const failed: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:ledger:*`, 'COUNT', 100);
      cursor = next;
      for (const key of keys) {
        const instanceId = key.slice(`${prefix}:ledger:`.length);
        if (instanceId === this.#o.instanceId || (await redis.exists(this.#alive(instanceId)))) continue;
        for (const raw of Object.values(await redis.hgetall(key))) {
          const entry = JSON.parse(raw) as LedgerEntry;
          if (await this.#fail(taskStore, entry)) failed.push(entry.taskId);
        }
        await redis.del(key);
        logger.warn(
          { instanceId, failed },
          'tasks of a process that stopped without finishing them were failed',
        );
      }
    } while (cursor !== '0');
    return failed;
  }

  async #fail(taskStore: TaskStore, { taskId, contextId, owner, tenant }: LedgerEntry): Promise<boolean> {
    const context = new ServerCallContext({ ...(tenant ? { tenant } : {}) });
    context.state.set(ACTING_FOR, owner);
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
