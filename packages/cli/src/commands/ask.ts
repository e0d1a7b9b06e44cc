import { inert, sendMessageRequest, userMessage } from '@switchboard/protocol';
import { followStream, type ProgressUpdate } from '../a2a/follow-stream.ts';
import { explainA2aError } from '../a2a/supervisor-client.ts';
import { openSupervisorSession } from '../a2a/supervisor-session.ts';
import {
  FINISHED_STATES,
  outcomeOfTask,
  type TaskOutcome,
  textOf,
  WAITING_STATES,
} from '../a2a/task-outcome.ts';
import { reportFailure } from '../errors.ts';
import { EXIT, type Output } from '../io/output.ts';
import { exitCodeOf, printOutcome } from '../io/print-outcome.ts';
import { recordCommandCost, withCommandCost } from '../observe/command-cost.ts';
import { jaegerTraceUrl } from '../trace-context.ts';

/** Options of {@link askCommand}. */
export interface AskOptions {
  /** What to ask the supervisor. */
  request: string;
  /** Continue this conversation (a context id printed by an earlier `ask`). */
  contextId: string | undefined;
  json: boolean;
  /** Stream progress (default); false sends one blocking SendMessage. */
  stream: boolean;
  /** `--url`, over `SWITCHBOARD_URL`. */
  url?: string | undefined;
  /** `--token`, over `SWITCHBOARD_TOKEN`. */
  token?: string | undefined;
  /** `--as`: another caller of the local stack (`traveller-1`, `operator`), instead of `--token`. */
  as?: string | undefined;
  /** The command's environment (`SWITCHBOARD_URL`, `SWITCHBOARD_TOKEN`). */
  env: NodeJS.ProcessEnv;
  /** When set, the trace's Jaeger link is printed. */
  jaegerUrl: string | undefined;
  output: Output;
}

/**
 * `switchboard ask "<request>"`: sends a request to the supervisor, shows its progress as it
 * arrives, then the answer, the task and context ids and the trace. Exit 0 answered, 3 waiting for
 * a human (an approval), 1 failed, rejected or canceled, or the supervisor unreachable; 2 settings.
 */
export async function askCommand({
  request,
  contextId,
  json,
  stream,
  url,
  token,
  as,
  env,
  jaegerUrl,
  output,
}: AskOptions): Promise<number> {
  if (!request.trim()) {
    output.err('Say what to ask, e.g. switchboard ask "Where is my order?"');
    return EXIT.usage;
  }
  let taskId: string | undefined;
  try {
    const { client, url: supervisor, trace } = await openSupervisorSession({ url, token, as, env });
    const params = sendMessageRequest({
      message: userMessage({ text: request, ...(contextId ? { contextId } : {}) }),
    });
    if (!json) output.out(`Asking the supervisor at ${supervisor.value}`);
    let outcome: TaskOutcome;
    let progress: ProgressUpdate[] = [];
    if (stream) {
      const followed = await followStream({
        events: withCommandCost(client.sendMessageStream(params)),
        onProgress: (update) => {
          if (!json) output.out(`  > ${inert(update.text)}`);
        },
      });
      ({ outcome, progress } = followed);
      taskId = outcome.taskId || undefined;
      const settled = FINISHED_STATES.has(outcome.state) || WAITING_STATES.has(outcome.state);
      // The stream may end early (a proxy, a restart): the task itself says where it stands.
      if (!settled && taskId) {
        outcome = outcomeOfTask(await client.getTask({ tenant: '', id: taskId }));
      }
    } else {
      const reply = await client.sendMessage(params);
      recordCommandCost(reply);
      if ('status' in reply && 'id' in reply) outcome = outcomeOfTask(reply);
      else {
        const text = textOf(reply);
        outcome = {
          taskId: '',
          contextId: reply.contextId,
          state: 'completed',
          statusText: text,
          answer: text,
          pendingApprovals: [],
        };
      }
    }
    if (json) {
      output.out(
        JSON.stringify(
          {
            taskId: outcome.taskId,
            contextId: outcome.contextId,
            state: outcome.state,
            answer: outcome.answer ?? null,
            statusText: outcome.statusText,
            pendingApprovals: outcome.pendingApprovals,
            traceId: trace.traceId,
            progress,
          },
          null,
          2,
        ),
      );
      return exitCodeOf(outcome);
    }
    output.out('');
    const code = printOutcome({ outcome, output });
    output.out('');
    if (outcome.taskId) output.out(`Task: ${outcome.taskId} (${outcome.state})`);
    if (outcome.contextId) {
      output.out(
        `Context: ${outcome.contextId} (follow up with: switchboard ask --context ${outcome.contextId} "...")`,
      );
    }
    output.out(`Trace: ${trace.traceId}`);
    output.out(`  switchboard trace ${trace.traceId}`);
    if (jaegerUrl) output.out(`  ${jaegerTraceUrl({ jaegerUrl, traceId: trace.traceId })}`);
    return code;
  } catch (error) {
    return reportFailure({ error: explainA2aError({ error, ...(taskId ? { taskId } : {}) }), output });
  }
}
