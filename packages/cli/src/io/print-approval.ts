import type { BoardApproval as Approval } from '@switchboard/protocol';
import type { Output } from './output.ts';

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/** One argument as an operator reads it: a text as it is (several lines indented), anything else as JSON. */
function argumentLines(name: string, value: unknown): string[] {
  if (typeof value === 'string' && value.includes('\n')) {
    return [`    ${name}:`, ...value.split('\n').map((line) => `      ${line}`)];
  }
  return [`    ${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`];
}

/**
 * Prints one approval whole, for an operator about to decide it: what the agent wants to do, who
 * asked, where it waits, how it stands, and every argument the call will run with, long texts (an
 * email's body) in full, with the hash an approval is bound to.
 */
export function printApproval({ approval, output }: { approval: Approval; output: Output }): void {
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
  const entries = Object.entries(approval.arguments);
  if (entries.length === 0) output.out('    (none)');
  for (const [name, value] of entries) for (const line of argumentLines(name, value)) output.out(line);
}
