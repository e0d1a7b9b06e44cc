import type { Principal } from '@switchboard/agent';
import { type OperatorSide, readApprovalTask } from '@switchboard/host/approvals';
import type { Request, Response } from 'express';
import { snapshotOf } from './pages/task-snapshot.ts';

/** How often the stream looks at the approval and its task, and how long it follows them at most. */
export interface LiveOptions {
  intervalMs?: number;
  maxMs?: number;
}

const ENDED = new Set(['completed', 'failed', 'canceled', 'rejected']);

/**
 * `GET <approval>/events`: a Server-Sent Events stream of the approval and its task as the page
 * shows them (event `snapshot`, whenever what it shows changes), until the approval is decided and
 * its task has ended (event `end`), the browser leaves, or `maxMs` passes. It reads the task as the
 * operator in its owner's scope, as the page does; from any replica, since both live in Redis.
 */
export async function streamApproval(
  req: Request,
  res: Response,
  {
    side,
    operator,
    id,
    intervalMs = 1_000,
    maxMs = 15 * 60_000,
  }: LiveOptions & {
    side: OperatorSide;
    operator: Principal;
    id: string;
  },
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
    const approval = await side.board.get(id);
    if (!approval) break;
    const task = await readApprovalTask({ ...side, approval, operator, historyLength: 50 });
    const snapshot = snapshotOf(approval, task);
    const data = JSON.stringify(snapshot);
    if (data !== last) {
      res.write(`event: snapshot\ndata: ${data}\n\n`);
      last = data;
    }
    if (approval.status !== 'pending' && (!snapshot.task || ENDED.has(snapshot.task.state))) break;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  if (open) res.end('event: end\ndata: {}\n\n');
}
