import type { Logger } from '@switchboard/agent';
import type { Request, Response } from 'express';
import type { ProgressLine } from './pages/progress.ts';
import type { PageSnapshot } from './pages/task-snapshot.ts';

/** What a page's stream follows: `read` gives what the page shows now, and whether it can change still. */
export interface LiveOptions {
  read: () => Promise<{ snapshot: PageSnapshot; done: boolean } | undefined>;
  /** How often it reads (default 1 s). */
  intervalMs?: number;
  /** How long it follows at most (default 15 min; the browser's EventSource then reconnects). */
  maxMs?: number;
  /**
   * The task's progress as it happens, sent as `progress` events (with the line's position as the
   * event's id, so a reconnecting browser's `Last-Event-ID` goes on after it) while the stream lasts.
   */
  progress?: (signal: AbortSignal) => AsyncIterable<ProgressLine>;
  /** Where a failed read of the progress is reported (the snapshots go on without it). */
  logger?: Pick<Logger, 'warn'>;
}

/**
 * `GET <page>/events`: a Server-Sent Events stream of what a page shows (event `snapshot`, each time
 * `read` gives something else), until `read` says nothing more can change (`done`) or gives nothing
 * (then event `end`), the browser leaves, or `maxMs` passes. It reads what the page reads (the task
 * store and the board, in Redis), so any replica serves it.
 */
export async function streamSnapshots(
  req: Request,
  res: Response,
  { read, intervalMs = 1_000, maxMs = 15 * 60_000, progress, logger }: LiveOptions,
): Promise<void> {
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  let open = true;
  const following = new AbortController();
  req.on('close', () => {
    open = false;
    following.abort();
  });
  const followed = progress
    ? (async () => {
        for await (const line of progress(following.signal)) {
          if (!open) return;
          res.write(`event: progress\nid: ${line.position}\ndata: ${JSON.stringify(line)}\n\n`);
        }
      })().catch((error: unknown) =>
        logger?.warn({ err: error }, 'console: a task’s progress could not be followed'),
      )
    : Promise.resolve();
  const until = Date.now() + maxMs;
  let last = '';
  while (open && Date.now() < until) {
    const now = await read();
    if (!now) break;
    const data = JSON.stringify(now.snapshot);
    if (data !== last) {
      res.write(`event: snapshot\ndata: ${data}\n\n`);
      last = data;
    }
    if (now.done) break;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  following.abort();
  await followed;
  if (open) res.end('event: end\ndata: {}\n\n');
}
