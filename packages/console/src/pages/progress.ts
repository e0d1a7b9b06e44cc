import { TaskState } from '@a2a-js/sdk';
import type { PositionedEvent } from '@switchboard/host/approvals';
import { readMessage } from '@switchboard/protocol';
import { html, shown } from '../html/html.ts';
import { stateName } from './task-snapshot.ts';

/** One line of a run's progress as a request's page shows it, every text inert. */
export interface ProgressLine {
  /** The event's position in the task's stream: the live view goes on after the last one shown. */
  position: number;
  /** When the agent published it (ISO 8601). */
  at: string;
  state: string;
  text: string;
}

/**
 * The progress line of a task event: a status update that says something ("Step 1: running
 * lookup_order", a question, why it failed). Updates with no text, artifacts and the task itself are
 * none. What a tool or the model wrote reaches the page inert.
 */
export function progressLine({ position, event }: PositionedEvent): ProgressLine | undefined {
  if (event.payload?.$case !== 'statusUpdate') return undefined;
  const { status } = event.payload.value;
  const text = status?.message ? readMessage(status.message).text : '';
  if (!text) return undefined;
  return {
    position,
    at: shown(status?.timestamp ?? ''),
    state: stateName(status?.state ?? TaskState.TASK_STATE_UNSPECIFIED),
    text: shown(text, { lines: true }),
  };
}

/** The progress list of a request's page, with the id the live script appends to. */
export function progressList(lines: readonly ProgressLine[] | undefined) {
  if (!lines) return html`<p class="empty">This service keeps no event log the console can read.</p>`;
  const items = lines.map(
    (line) =>
      html`<li data-position="${String(line.position)}"><span class="at">${line.at}</span> <span class="state">${line.state}</span> <span class="text">${line.text}</span></li>`,
  );
  return html`<ol id="progress" class="progress">${items}</ol>`;
}
