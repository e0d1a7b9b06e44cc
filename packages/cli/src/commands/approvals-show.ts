import { connectAdmin } from '../admin/admin-client.ts';
import { reportFailure } from '../errors.ts';
import { EXIT, type Output } from '../io/output.ts';
import { printApproval } from '../io/print-approval.ts';

/**
 * `switchboard approvals show <id>`: one approval whole, as an operator should read it before
 * deciding: the action, who asked, where it waits, and every argument its call will run with (an
 * email's whole body), with their hash. Exit 0 shown; 1 there is no such approval; 2 settings.
 */
export async function approvalsShow({
  id,
  json,
  url,
  token,
  env,
  output,
}: {
  id: string;
  json: boolean;
  url?: string | undefined;
  /** `--token`: the admin token, over `SWITCHBOARD_ADMIN_TOKEN`. */
  token?: string | undefined;
  /** The command's environment (`SWITCHBOARD_URL`, `SWITCHBOARD_ADMIN_TOKEN`). */
  env: NodeJS.ProcessEnv;
  output: Output;
}): Promise<number> {
  try {
    const approval = await (await connectAdmin({ url, token, env })).get(id);
    if (json) output.out(JSON.stringify({ approval }, null, 2));
    else {
      printApproval({ approval, output });
      if (approval.status === 'pending') {
        output.out('');
        output.out(`Decide with: switchboard approvals approve ${id}   (or: deny ${id} --reason "<why>")`);
      }
    }
    return EXIT.ok;
  } catch (error) {
    return reportFailure({ error, output });
  }
}
