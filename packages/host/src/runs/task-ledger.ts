import type { TaskStore } from '@a2a-js/sdk/server';

/** A task running in some process, as the ledger records it. */
export interface LedgerEntry {
  taskId: string;
  contextId: string;
  owner: string;
  tenant: string;
}

/**
 * Which tasks each process is running, for the ones nothing else would recover: a task started
 * over HTTP dies with its process (a task from the queue is resumed by BullMQ instead).
 */
export interface TaskLedger {
  begin(entry: LedgerEntry): Promise<void>;
  end(taskId: string): Promise<void>;
}

/** A task ledger that marks this process alive while started (`RedisTaskLedger` is one). */
export interface StartableTaskLedger extends TaskLedger {
  start(taskStore: TaskStore): Promise<void>;
  stop(): Promise<void>;
}
