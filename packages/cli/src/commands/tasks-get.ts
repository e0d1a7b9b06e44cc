import { Task } from '@a2a-js/sdk';
import { inert } from '@switchboard/protocol';
import { explainA2aError } from '../a2a/supervisor-client.ts';
import { openSupervisorSession } from '../a2a/supervisor-session.ts';
import { outcomeOfTask } from '../a2a/task-outcome.ts';
import { reportFailure } from '../errors.ts';
import { EXIT } from '../io/output.ts';
import { printOutcome } from '../io/print-outcome.ts';
import type { TaskCommandOptions } from './task-command-options.ts';

/**
 * `switchboard tasks get <taskId>`: where a task stands (GetTask): its state, last status text,
 * answer and history length. Exit 0 when the task was read, whatever its state; 1 when there is no
 * such task or the supervisor is unreachable; 2 for settings.
 */
export async function tasksGet({
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
    const task = await client.getTask({ tenant: '', id: taskId });
    const outcome = outcomeOfTask(task);
    if (json) {
      output.out(
        JSON.stringify(
          {
            ...outcome,
            answer: outcome.answer ?? null,
            historyLength: task.history.length,
            task: Task.toJSON(task),
          },
          null,
          2,
        ),
      );
      return EXIT.ok;
    }
    output.out(`Task ${inert(outcome.taskId)}: ${outcome.state}`);
    output.out(`Context: ${inert(outcome.contextId)}`);
    output.out(`Updated: ${task.status?.timestamp ?? 'unknown'}`);
    output.out(`History: ${task.history.length} messages`);
    if (outcome.state !== 'completed' && outcome.answer !== undefined)
      output.out(`Answer so far: ${outcome.answer}`);
    output.out('');
    printOutcome({ outcome, output });
    return EXIT.ok;
  } catch (error) {
    return reportFailure({ error: explainA2aError({ error, taskId }), output });
  }
}
