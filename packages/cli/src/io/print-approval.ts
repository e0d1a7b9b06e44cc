import type { BoardApproval as Approval } from '@switchboard/protocol';
import { inert } from '@switchboard/protocol';
import type { Output } from './output.ts';

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/**
 * One argument as an operator reads it: a text as it is (several lines indented), anything else as
 * JSON; every part of it {@link inert}, so what a user or model wrote in it cannot act on the terminal.
 * A text with a carriage return stays on one line, its breaks escaped, so none can pass for another.
 */
function argumentLines(name: string, value: unknown): string[] {
  if (typeof value === 'string' && value.includes('\n') && !value.includes('\r')) {
    return [`    ${inert(name)}:`, ...value.split('\n').map((line) => `      ${inert(line)}`)];
  }
  return [`    ${inert(name)}: ${inert(typeof value === 'string' ? value : JSON.stringify(value))}`];
}

/**
 * Prints one approval whole, for an operator about to decide it: what the agent wants to do, who
 * asked, where it waits, how it stands, and every argument the call will run with, long texts (an
 * email's body) in full, with the hash an approval is bound to.
 */
export function printApproval({ approval: raw, output }: { approval: Approval; output: Output }): void {
  const approval = inertApproval(raw);
  const decided =
    approval.status === 'approved' || approval.status === 'denied'
      ? ` by ${approval.decidedBy ?? 'someone'} at ${approval.decidedAt ?? '?'}${approval.reason ? ` (${approval.reason})` : ''}`
      : '';
  output.out(`${approval.id}: ${approval.status}${decided}`);
  output.out(`  ${approval.text}`);
  output.out(`  agent:       ${approval.agent} (tool ${approval.tool})`);
  output.out(`  action:      ${approval.action}`);
  output.out(`  reversible:  ${yesNo(approval.reversible)}; repeatable: ${yesNo(approval.repeatable)}`);
  output.out(
    `  requested:   ${approval.requestedAt}${approval.requestedBy ? ` by ${approval.requestedBy}` : ''}`,
  );
  output.out(`  task:        ${approval.taskId} (context ${approval.contextId})`);
  output.out(`  arguments (sha256 ${approval.argumentsHash}):`);
  const entries = Object.entries(raw.arguments);
  if (entries.length === 0) output.out('    (none)');
  for (const [name, value] of entries) for (const line of argumentLines(name, value)) output.out(line);
}

/**
 * An approval as a view shows it: each of its text fields (action, text, ids, who and why)
 * {@link inert} and on one line, whatever its author put in it; its arguments as they are, for
 * `argumentLines`.
 */
export function inertApproval(approval: Approval): Approval {
  const shown: Record<string, unknown> = { ...approval };
  for (const [key, value] of Object.entries(approval))
    if (typeof value === 'string') shown[key] = inert(value);
  // Only strings changed, each to a string (and an enum's words have nothing to escape).
  return shown as Approval;
}
