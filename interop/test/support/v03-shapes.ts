/**
 * What a user reads of A2A 0.2/0.3 shapes (`kind`-tagged parts and events), as the SDK's 0.x clients and
 * Mastra client-js's `getA2A` hand them over: the text of artifacts and status messages.
 */
interface Part03 {
  kind: string;
  text?: string;
}
interface Status03 {
  state: string;
  message?: { parts: Part03[] };
}
/** A task as 0.2/0.3 clients return it. */
export interface Task03 {
  kind: 'task';
  id: string;
  contextId: string;
  status: Status03;
  artifacts?: { parts: Part03[] }[];
}
/** A streamed event as 0.2/0.3 clients yield it. */
export type Event03 =
  | Task03
  | { kind: 'status-update'; contextId: string; status: Status03; final?: boolean }
  | { kind: 'artifact-update'; artifact: { parts: Part03[] } }
  | { kind: 'message'; parts: Part03[] };

/** The text parts of `parts`, joined by line. */
export const text03 = (parts: Part03[] = []) =>
  parts.flatMap((part) => (part.kind === 'text' && part.text !== undefined ? [part.text] : [])).join('\n');

/** What a user reads of a finished task: its artifacts, then its final status message. */
export const shown03 = (task: Task03) =>
  [...(task.artifacts ?? []).map((artifact) => text03(artifact.parts)), text03(task.status.message?.parts)]
    .filter(Boolean)
    .join('\n');

/**
 * A stream as its user reads it: the answer (artifacts, and status messages that are not "working"),
 * the progress lines (working status messages), and the last state.
 */
export async function read03Stream(
  events: AsyncIterable<unknown>,
): Promise<{ answer: string; progress: string; state: string | undefined }> {
  const answer: string[] = [];
  const progress: string[] = [];
  let state: string | undefined;
  for await (const raw of events) {
    const event = raw as Event03;
    if (event.kind === 'artifact-update') answer.push(text03(event.artifact.parts));
    if (event.kind === 'status-update' || event.kind === 'task') {
      state = event.status.state;
      const text = text03(event.status.message?.parts);
      if (state === 'working' || state === 'submitted') progress.push(text);
      else answer.push(text);
    }
    if (event.kind === 'task')
      answer.push(...(event.artifacts ?? []).map((artifact) => text03(artifact.parts)));
  }
  return { answer: answer.filter(Boolean).join('\n'), progress: progress.join('\n'), state };
}
