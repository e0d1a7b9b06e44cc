import type { BoardApproval as Approval } from '@switchboard/protocol';
import { type AdminClient, connectAdmin } from '../admin/admin-client.ts';
import { reportFailure } from '../errors.ts';
import { column, EXIT, type Output } from '../io/output.ts';
import { inertApproval, printApproval } from '../io/print-approval.ts';

const MAX_ACTION = 60;

/** What the STATUS column says of a withdrawn approval: who canceled its task, when known. */
function withdrawnStatus(approval: Approval): string {
  return approval.withdrawnBy ? `withdrawn (task canceled by ${approval.withdrawnBy})` : 'withdrawn';
}

/** What the STATUS column says: `pending`, or the decision and who took it. */
function statusOf(approval: Approval): string {
  if (approval.status === 'withdrawn') return withdrawnStatus(approval);
  if (approval.status === 'pending') return approval.status;
  return `${approval.status}${approval.decidedBy ? ` by ${approval.decidedBy}` : ''}`;
}

/** The most `--limit` may ask for: the admin API's largest page. */
export const MAX_LIST_LIMIT = 500;

/** `--limit` as typed: a whole number from 1 to {@link MAX_LIST_LIMIT}, or what is wrong with it. */
export function parseListLimit(limit: string): number | { problem: string } {
  const value = /^\d{1,4}$/.test(limit) ? Number(limit) : Number.NaN;
  if (Number.isInteger(value) && value >= 1 && value <= MAX_LIST_LIMIT) return value;
  return { problem: `--limit ${limit} is not a whole number from 1 to ${MAX_LIST_LIMIT}, e.g. --limit 50` };
}

/** The approvals of one page (`--limit`, `--cursor`), or of every page, and where the next begins. */
async function readApprovals(
  admin: AdminClient,
  status: 'pending' | 'decided' | 'all',
  page: { limit?: number | undefined; cursor?: string | undefined },
): Promise<{ approvals: Approval[]; nextCursor?: string | undefined }> {
  if (page.limit === undefined && page.cursor === undefined)
    return { approvals: await admin.list({ status }) };
  return admin.page({ status, ...page });
}

/** How to read the next page, after a page that has one. */
function nextPageHint(args: {
  status: 'pending' | 'decided' | 'all';
  limit?: number | undefined;
  nextCursor: string;
}) {
  const flag = args.status === 'pending' ? '' : ` --${args.status}`;
  const limit = args.limit === undefined ? '' : ` --limit ${args.limit}`;
  return `More approvals: switchboard approvals list${flag}${limit} --cursor ${args.nextCursor}`;
}

const shorten = (text: string) => (text.length > MAX_ACTION ? `${text.slice(0, MAX_ACTION - 1)}…` : text);

/**
 * `switchboard approvals list [--all|--decided] [--full]`: the supervisor's approvals as a table
 * (id, agent, action, requested at, status or decider), or with `--full` each one whole, every
 * argument of its call included (an email's whole body). Exit 0 when listed, even if empty.
 */
export async function approvalsList({
  status,
  json,
  full = false,
  limit,
  cursor,
  url,
  token,
  env,
  output,
}: {
  status: 'pending' | 'decided' | 'all';
  json: boolean;
  /** `--full`: each approval whole instead of one row each. */
  full?: boolean;
  /** `--limit`: one page of at most this many (default: every page). */
  limit?: number | undefined;
  /** `--cursor`: the page that starts there (a `nextCursor` a page printed). */
  cursor?: string | undefined;
  url?: string | undefined;
  /** `--token`: the admin token, over `SWITCHBOARD_ADMIN_TOKEN`. */
  token?: string | undefined;
  /** The command's environment (`SWITCHBOARD_URL`, `SWITCHBOARD_ADMIN_TOKEN`). */
  env: NodeJS.ProcessEnv;
  output: Output;
}): Promise<number> {
  try {
    const admin = await connectAdmin({ url, token, env });
    const { approvals, nextCursor } = await readApprovals(admin, status, { limit, cursor });
    if (json) {
      output.out(JSON.stringify({ approvals, ...(nextCursor ? { nextCursor } : {}) }, null, 2));
      return EXIT.ok;
    }
    if (approvals.length === 0) {
      output.out(
        status === 'pending'
          ? 'No approvals are pending.'
          : `No ${status === 'all' ? '' : 'decided '}approvals.`,
      );
      return EXIT.ok;
    }
    if (full) {
      for (const [index, approval] of approvals.entries()) {
        if (index > 0) output.out('');
        printApproval({ approval, output });
      }
    } else printTable(approvals, output);
    const pending = approvals.filter((approval) => approval.status === 'pending');
    const first = pending[0];
    if (first) {
      output.out('');
      output.out(
        `Decide with: switchboard approvals approve ${first.id}   (or: deny ${first.id} --reason "<why>")`,
      );
      if (!full) output.out(`Every argument of one: switchboard approvals show ${first.id} (or list --full)`);
    }
    if (nextCursor) {
      output.out('');
      output.out(nextPageHint({ status, limit, nextCursor }));
    }
    return EXIT.ok;
  } catch (error) {
    return reportFailure({ error, output });
  }
}

/** One row per approval: id, agent, action (shortened), requested at, status or decider. */
function printTable(approvals: readonly Approval[], output: Output): void {
  const rows = [
    ['ID', 'AGENT', 'ACTION', 'REQUESTED AT', 'STATUS'],
    ...approvals
      .map(inertApproval)
      .map((approval) => [
        approval.id,
        approval.agent,
        shorten(approval.action),
        approval.requestedAt,
        statusOf(approval),
      ]),
  ];
  const widths = rows[0]?.map((_, index) => Math.max(...rows.map((row) => (row[index] ?? '').length))) ?? [];
  for (const row of rows) {
    output.out(
      row
        .map((cell, index) => (index === row.length - 1 ? cell : column(cell, (widths[index] ?? 0) + 2)))
        .join('')
        .trimEnd(),
    );
  }
}
