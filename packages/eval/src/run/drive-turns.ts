import type { Turn } from '../case/eval-case.ts';
import type { OperatorDecision } from './observation.ts';
import type { SupervisorDriver, TurnOutcome } from './supervisor-driver.ts';

/** What playing a case's turns produced. */
export interface PlayedTurns {
  /** Where the conversation's latest task ended after the last turn. */
  last: TurnOutcome | undefined;
  /** The answer after each turn, in order (all are checked for secrets). */
  answers: string[];
  /** One line per turn, for the report: `user → completed`, `approve all: 1 (refund_order) → completed`. */
  log: string[];
  decisions: OperatorDecision[];
}

const preview = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

/**
 * Plays a case's turns against a supervisor: a `user` turn sends the text and waits for the task to
 * stop working; `approve`/`deny` decides every approval of the conversation that is pending, one at
 * a time, waiting for the resumed task to settle after each. Turns run in order, in one conversation.
 */
export async function playTurns({
  driver,
  turns,
  onTurn,
  played = { last: undefined, answers: [], log: [], decisions: [] },
}: {
  driver: SupervisorDriver;
  turns: readonly Turn[];
  /** Told which turn starts, e.g. for a timeout message. */
  onTurn?: (index: number, label: string) => void;
  /** Filled in as the turns play, so a caller that gives up early still sees what happened. */
  played?: PlayedTurns;
}): Promise<PlayedTurns> {
  for (const [index, turn] of turns.entries()) {
    if ('user' in turn) {
      onTurn?.(index, `user: "${preview(turn.user)}"`);
      played.last = await driver.say(turn.user);
      played.answers.push(played.last.answer);
      played.log.push(`user "${preview(turn.user)}" → ${played.last.state}`);
      continue;
    }
    const decision = 'approve' in turn ? 'approve' : 'deny';
    onTurn?.(index, `${decision} all`);
    // One at a time, waiting for the task after each decision, as an operator with `switchboard
    // approvals approve` does; an approval the task withdrew meanwhile is left alone.
    const pending = await driver.pendingApprovals();
    const decided: OperatorDecision[] = [];
    for (const [position, approval] of pending.entries()) {
      if (position > 0 && !(await driver.pendingApprovals()).some((item) => item.id === approval.id))
        continue;
      await driver.decide({ id: approval.id, decision, reason: turn.reason });
      decided.push({
        approvalId: approval.id,
        agent: approval.agent,
        tool: approval.tool,
        decision: decision === 'approve' ? 'approved' : 'denied',
      });
      played.decisions.push(...decided.slice(-1));
      played.last = await driver.settle({ taskId: approval.taskId, decided: [approval.id] });
      played.answers.push(played.last.answer);
    }
    const what =
      decided.length === 0
        ? 'nothing was pending'
        : `${decided.length} (${decided.map((a) => a.tool).join(', ')})`;
    played.log.push(
      `${decision} all: ${what}${decided.length > 0 && played.last ? ` → ${played.last.state}` : ''}`,
    );
  }
  return played;
}
