import { inert } from '@switchboard/protocol';
import { FINISHED_STATES, type TaskOutcome, WAITING_STATES } from '../a2a/task-outcome.ts';
import { EXIT, type ExitCode, type Output } from './output.ts';

/** The exit code of a command that ends with this task outcome: 0 completed, 3 waiting, 1 otherwise. */
export function exitCodeOf(outcome: TaskOutcome): ExitCode {
  if (outcome.state === 'completed') return EXIT.ok;
  if (WAITING_STATES.has(outcome.state)) return EXIT.waiting;
  return EXIT.problems;
}

/** Quotes a value for a shell command line when it needs it. */
const shellArg = (value: string) =>
  /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * Prints what a task came to, for a person: the answer; or each pending approval with the exact
 * commands to approve or deny it; or why it failed. Returns the exit code ({@link exitCodeOf}).
 */
export function printOutcome({ outcome, output }: { outcome: TaskOutcome; output: Output }): ExitCode {
  const { state, statusText, answer, pendingApprovals } = outcome;
  if (state === 'completed') {
    output.out(answer ?? statusText);
  } else if (WAITING_STATES.has(state) && pendingApprovals.length > 0) {
    const count = pendingApprovals.length;
    output.out(`Waiting for a human: ${count === 1 ? '1 approval is' : `${count} approvals are`} needed.`);
    // The status lists each approval as a bullet; what a bullet's text holds is no line of its own.
    const bullets = pendingApprovals.map((approval) => `- ${approval.text} (approval id ${approval.id})`);
    const extra = bullets
      .reduce((text, bullet) => text.replace(bullet, ''), statusText)
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('- ') && !/approval before I can go on/.test(line));
    for (const line of extra) output.out(inert(line));
    for (const approval of pendingApprovals) {
      output.out('');
      output.out(`  ${inert(approval.id)}  (${inert(approval.agent)} agent, tool ${inert(approval.tool)})`);
      output.out(`    ${inert(approval.text)}`);
      for (const line of approval.details?.split('\n') ?? []) output.out(`      ${inert(line)}`);
      output.out(`    approve: switchboard approvals approve ${shellArg(approval.id)}`);
      output.out(`    deny:    switchboard approvals deny ${shellArg(approval.id)} --reason "<why>"`);
    }
  } else if (WAITING_STATES.has(state)) {
    output.out(`Waiting for you (${state}): ${inert(statusText, { lines: true })}`);
    output.out(`  answer with: switchboard ask --context ${shellArg(outcome.contextId)} "<your answer>"`);
  } else if (FINISHED_STATES.has(state)) {
    const what = state === 'failed' ? 'failed' : `was ${state}`;
    output.out(`The task ${what}: ${statusText || '(no reason given)'}`);
  } else {
    output.out(
      `The task is still ${state} (${statusText || 'no status text'}); follow it with: switchboard tasks get ${shellArg(outcome.taskId)}`,
    );
  }
  return exitCodeOf(outcome);
}
