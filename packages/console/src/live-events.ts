import type { Request, Response } from 'express';
import type { PageSnapshot } from './pages/task-snapshot.ts';

/** What a page's stream follows: `read` gives what the page shows now, and whether it can change still. */
export interface LiveOptions {
  read: () => Promise<{ snapshot: PageSnapshot; done: boolean } | undefined>;
  /** How often it reads (default 1 s). */
  intervalMs?: number;
  /** How long it follows at most (default 15 min; the browser's EventSource then reconnects). */
  maxMs?: number;
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
  { read, intervalMs = 1_000, maxMs = 15 * 60_000 }: LiveOptions,
): Promise<void> {
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  let open = true;
  req.on('close', () => {
    open = false;
  });
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
  if (open) res.end('event: end\ndata: {}\n\n');
}
