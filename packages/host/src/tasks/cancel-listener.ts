import { type Logger, stderrLogger } from '@switchboard/agent';
import { duplicateConnection, type RedisConnection } from '@switchboard/redis';
import { taskCanceledChannel } from './task-store-keys.ts';

/** Something that can abort a task it runs; {@link SwitchboardAgentExecutor} is one. */
export interface TaskAborter {
  abort(taskId: string): boolean;
}

/**
 * Aborts tasks canceled on another replica: listens on the task store's cancel channel (see
 * `RedisTaskStore`) and aborts the run if it happens here. Opens its own subscriber connection.
 */
export async function listenForCancels({
  redis,
  prefix,
  executor,
  logger = stderrLogger(),
}: {
  redis: RedisConnection;
  prefix: string;
  executor: TaskAborter;
  logger?: Logger;
}): Promise<{ close(): Promise<void> }> {
  const subscriber = duplicateConnection(redis, `${prefix}:cancel-listener`);
  const channel = taskCanceledChannel(prefix);
  subscriber.on('message', (from: string, taskId: string) => {
    if (from === channel && executor.abort(taskId))
      logger.info({ taskId }, 'task canceled from another replica; aborted');
  });
  subscriber.on('error', (error) => logger.warn({ err: error, channel }, 'cancel listener error'));
  await subscriber.subscribe(channel);
  return {
    close: async () => {
      subscriber.disconnect();
    },
  };
}
