import type { TaskEventFeed } from '@switchboard/host/approvals';
import { type ProgressLine, progressLine } from './pages/progress.ts';

/** A task's progress lines after position `after`, as they are published, until `signal` aborts. */
export async function* followProgress(
  feed: TaskEventFeed,
  taskId: string,
  { after, signal }: { after: number; signal: AbortSignal },
): AsyncGenerator<ProgressLine, void, undefined> {
  for await (const event of feed.follow(taskId, { after, signal })) {
    const line = event && progressLine(event);
    if (line) yield line;
  }
}

/** What the current run of a task has said so far, and the position the live view goes on after. */
export async function progressSoFar(
  feed: TaskEventFeed,
  taskId: string,
): Promise<{ lines: ProgressLine[]; last: number }> {
  const { events, last } = await feed.sinceLastTask(taskId);
  return { lines: events.flatMap((event) => progressLine(event) ?? []), last };
}
