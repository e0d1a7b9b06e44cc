import { inert } from '@switchboard/protocol';
import { explainA2aError } from '../a2a/supervisor-client.ts';
import { waitForTask } from '../a2a/wait-for-task.ts';
import { AdminClient } from '../admin/admin-client.ts';
import { resolveSettings } from '../config.ts';
import { reportFailure } from '../errors.ts';
import { EXIT, type Output } from '../io/output.ts';
import { exitCodeOf, printOutcome } from '../io/print-outcome.ts';
import { newTrace } from '../trace-context.ts';

/** Options of {@link approvalsDecide}. */
export interface ApprovalsDecideOptions {
  id: string;
  decision: 'approve' | 'deny';
  reason?: string | undefined;
  /** Wait for the resumed task to settle and print its answer (default true). */
  wait: boolean;
  /** `--timeout`, in seconds, as typed. */
  timeout: string;
  json: boolean;
  url?: string | undefined;
  /** `--token`: the admin token, over `SWITCHBOARD_ADMIN_TOKEN`. */
  token?: string | undefined;
  /** The command's environment (`SWITCHBOARD_URL`, `SWITCHBOARD_ADMIN_TOKEN`). */
  env: NodeJS.ProcessEnv;
  output: Output;
}

/**
 * `switchboard approvals approve|deny <id>`: decides a pending approval through the admin API,
 * then (unless `--no-wait`) polls the resumed task until it settles and prints its answer or its
 * next approval. The operator's token is all it needs: the task is read through the admin API, in
 * its owner's scope, and it is read once before deciding, so a token or a supervisor that cannot
 * follow the task is refused before anything is decided. Exit 0 decided (and answered), 3 the task waits on a new approval, 1 the approval
 * does not exist or is already decided, the task failed or did not settle in time; 2 settings.
 */
export async function approvalsDecide({
  id,
  decision,
  reason,
  wait,
  timeout,
  json,
  url,
  token,
  env,
  output,
}: ApprovalsDecideOptions): Promise<number> {
  const timeoutSeconds = Number(timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
    output.err(`--timeout ${timeout} is not a number of seconds above 0, e.g. --timeout 120`);
    return EXIT.usage;
  }
  let taskId: string | undefined;
  try {
    // Everything is checked before the decision is sent: it cannot be taken back.
    const settings = await resolveSettings({
      need: ['url', 'adminToken'],
      flags: { url: { value: url, flag: '--url' }, adminToken: { value: token, flag: '--token' } },
      env,
    });
    const admin = new AdminClient({
      url: settings.url,
      token: settings.adminToken,
      traceparent: newTrace().traceparent,
    });
    if (wait) await admin.task(id);
    const reply = await admin.decide({ id, decision, reason });
    taskId = reply.taskId;
    const { approval } = reply;
    const verb = approval.status === 'denied' ? 'Denied' : 'Approved';
    if (!json) {
      output.out(
        `${verb} ${inert(approval.id)}: ${inert(approval.action)}${approval.decidedBy ? ` (as ${inert(approval.decidedBy)})` : ''}.`,
      );
      output.out(`Task ${taskId} resumes.`);
    }
    if (!wait) {
      if (json) output.out(JSON.stringify({ approval, taskId, task: null, timedOut: false }, null, 2));
      else output.out(`Follow it with: switchboard tasks get ${taskId}`);
      return EXIT.ok;
    }
    const { outcome, timedOut } = await waitForTask({
      readTask: async () => (await admin.task(approval.id)).task,
      decidedApprovalId: approval.id,
      timeoutMs: timeoutSeconds * 1000,
    });
    if (json) {
      output.out(
        JSON.stringify(
          { approval, taskId, task: { ...outcome, answer: outcome.answer ?? null }, timedOut },
          null,
          2,
        ),
      );
    } else if (timedOut) {
      output.out(
        `Task ${taskId} is still ${outcome.state} after ${timeoutSeconds} s (${outcome.statusText || 'no status text'}). Follow it with: switchboard tasks get ${taskId}`,
      );
    } else {
      output.out('');
      printOutcome({ outcome, output });
    }
    if (timedOut) return EXIT.problems;
    return exitCodeOf(outcome);
  } catch (error) {
    return reportFailure({ error: explainA2aError({ error, ...(taskId ? { taskId } : {}) }), output });
  }
}
