import type { Client } from '@a2a-js/sdk/client';
import { explainA2aError } from '../a2a/supervisor-client.ts';
import { openSupervisorSession } from '../a2a/supervisor-session.ts';
import { FINISHED_STATES, outcomeOfTask, type TaskOutcome } from '../a2a/task-outcome.ts';
import { CliError, reportFailure } from '../errors.ts';
import { EXIT } from '../io/output.ts';
import type { TaskCommandOptions } from './task-command-options.ts';

const alreadyFinished = (task: TaskOutcome) =>
  new CliError('TASK_NOT_CANCELABLE', {
    message: `Task ${task.taskId} cannot be canceled: it has already finished (${task.state}${task.statusText ? `: ${task.statusText}` : ''}).`,
  });

async function current(client: Client, taskId: string): Promise<TaskOutcome> {
  return outcomeOfTask(await client.getTask({ tenant: '', id: taskId, historyLength: 0 }));
}

/**
 * `switchboard tasks cancel <taskId>`: cancels a working or waiting task (CancelTask). Exit 0 when
 * it is canceled; 1 when it had already finished (canceled included), does not exist, or the
 * supervisor is unreachable.
 */
export async function tasksCancel({
  taskId,
  json,
  url,
  token,
  as,
  env,
  output,
}: TaskCommandOptions): Promise<number> {
  try {
    const { client } = await openSupervisorSession({ url, token, as, env });
    const before = await current(client, taskId);
    if (FINISHED_STATES.has(before.state)) throw alreadyFinished(before);
    let outcome: TaskOutcome;
    try {
      outcome = outcomeOfTask(await client.cancelTask({ tenant: '', id: taskId, metadata: {} }));
    } catch (error) {
      const explained = explainA2aError({ error, taskId });
      // It finished between the two calls: say what it finished as.
      if (explained instanceof CliError && explained.code === 'TASK_NOT_CANCELABLE') {
        throw alreadyFinished(await current(client, taskId));
      }
      throw explained;
    }
    if (json) {
      output.out(
        JSON.stringify(
          { taskId: outcome.taskId, state: outcome.state, statusText: outcome.statusText },
          null,
          2,
        ),
      );
    } else if (outcome.state === 'canceled') {
      output.out(`Task ${outcome.taskId} is canceled.`);
    } else {
      output.out(`Asked to cancel task ${outcome.taskId}; it is ${outcome.state} now: ${outcome.statusText}`);
    }
    return outcome.state === 'canceled' || !FINISHED_STATES.has(outcome.state) ? EXIT.ok : EXIT.problems;
  } catch (error) {
    return reportFailure({ error: explainA2aError({ error, taskId }), output });
  }
}
