import type { BoardApproval as Approval } from '@switchboard/a2a/approvals';
import { AdminClient } from '../admin/admin-client.ts';
import { resolveSettings } from '../config.ts';
import { reportFailure } from '../errors.ts';
import { column, EXIT, type Output } from '../io/output.ts';
import { newTrace } from '../trace-context.ts';

const MAX_ACTION = 60;

/** What the STATUS column says: `pending`, or the decision and who took it. */
function statusOf(approval: Approval): string {
  if (approval.status === 'pending' || approval.status === 'withdrawn') return approval.status;
  return `${approval.status}${approval.decidedBy ? ` by ${approval.decidedBy}` : ''}`;
}

const shorten = (text: string) => (text.length > MAX_ACTION ? `${text.slice(0, MAX_ACTION - 1)}…` : text);

/**
 * `switchboard approvals list [--all|--decided]`: the supervisor's approvals as a table (id, agent,
 * action, requested at, status or decider). Exit 0 when listed, even if empty.
 */
export async function approvalsList({
  status,
  json,
  url,
  token,
  output,
}: {
  status: 'pending' | 'decided' | 'all';
  json: boolean;
  url?: string | undefined;
  /** `--token`: the admin token, over `SWITCHBOARD_ADMIN_TOKEN`. */
  token?: string | undefined;
  output: Output;
}): Promise<number> {
  try {
    const settings = await resolveSettings({
      need: ['url', 'adminToken'],
      flags: { url: { value: url, flag: '--url' }, adminToken: { value: token, flag: '--token' } },
    });
    const admin = new AdminClient({
      url: settings.url,
      token: settings.adminToken,
      traceparent: newTrace().traceparent,
    });
    const approvals = await admin.list({ status });
    if (json) {
      output.out(JSON.stringify({ approvals }, null, 2));
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
    const rows = [
      ['ID', 'AGENT', 'ACTION', 'REQUESTED AT', 'STATUS'],
      ...approvals.map((approval) => [
        approval.id,
        approval.agent,
        shorten(approval.action),
        approval.requestedAt,
        statusOf(approval),
      ]),
    ];
    const widths =
      rows[0]?.map((_, index) => Math.max(...rows.map((row) => (row[index] ?? '').length))) ?? [];
    for (const row of rows) {
      output.out(
        row
          .map((cell, index) => (index === row.length - 1 ? cell : column(cell, (widths[index] ?? 0) + 2)))
          .join('')
          .trimEnd(),
      );
    }
    const pending = approvals.filter((approval) => approval.status === 'pending');
    const first = pending[0];
    if (first) {
      output.out('');
      output.out(
        `Decide with: switchboard approvals approve ${first.id}   (or: deny ${first.id} --reason "<why>")`,
      );
    }
    return EXIT.ok;
  } catch (error) {
    return reportFailure({ error, output });
  }
}
