import { type Message, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';

/** The text parts of v1.0 `parts` (ProtoJSON `content` cases), joined by line. */
export const textV1 = (parts: Message['parts'] = []) =>
  parts.flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : [])).join('\n');

/** What a user reads of a finished v1.0 task: its artifacts, then its final status message. */
export const shownV1 = (task: Task) =>
  [...task.artifacts.map((artifact) => textV1(artifact.parts)), textV1(task.status?.message?.parts)]
    .filter(Boolean)
    .join('\n');

/**
 * A v1.0 stream (`StreamResponse`s) as its user reads it: the answer (artifacts, and status messages
 * that are not "working"), the progress lines (working status messages), and the last state.
 */
export async function readV1Stream(
  events: AsyncIterable<StreamResponse>,
): Promise<{ answer: string; progress: string; state: TaskState | undefined }> {
  const answer: string[] = [];
  const progress: string[] = [];
  let state: TaskState | undefined;
  for await (const { payload } of events) {
    if (payload?.$case === 'artifactUpdate') answer.push(textV1(payload.value.artifact?.parts));
    if (payload?.$case === 'statusUpdate' || payload?.$case === 'task') {
      state = payload.value.status?.state;
      const text = textV1(payload.value.status?.message?.parts);
      if (state === TaskState.TASK_STATE_WORKING || state === TaskState.TASK_STATE_SUBMITTED)
        progress.push(text);
      else answer.push(text);
    }
    if (payload?.$case === 'task')
      answer.push(...payload.value.artifacts.map((artifact) => textV1(artifact.parts)));
  }
  return { answer: answer.filter(Boolean).join('\n'), progress: progress.join('\n'), state };
}
