import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  BOB_TOKEN,
  EMAIL_BODY,
  type Supervisor,
  startSupervisor,
  USER_TOKEN,
} from './supervisor-host.ts';
import { hasStack, switchboard } from './support.ts';

let supervisor: Supervisor;
beforeEach(async () => {
  supervisor = await startSupervisor();
});
afterEach(async () => {
  await supervisor.close();
});

const run = (args: string[], env: Record<string, string> = {}) =>
  switchboard(args, { ...supervisor.env, ...env }, { cwd: supervisor.cwd });

/** The characters of `text` that act on a terminal: C0 but LF, DEL, C1, bidi overrides. */
const raw = (text: string) =>
  [...text]
    .map((char) => char.codePointAt(0) ?? 0)
    .filter(
      (code) =>
        (code < 0x20 && code !== 0x0a) ||
        (code >= 0x7f && code <= 0x9f) ||
        (code >= 0x202a && code <= 0x202e),
    );

/** Asks for a refund; returns the approval id the ask printed. */
async function askForRefund(orderId = 'A10086'): Promise<string> {
  const { code, stdout } = await run(['ask', `Please refund order ${orderId}`]);
  expect(code).toBe(3);
  const id = /switchboard approvals approve (apr_[0-9a-f]+)/.exec(stdout)?.[1];
  if (!id) throw new Error(`ask printed no approval:\n${stdout}`);
  return id;
}

describe('switchboard approvals', () => {
  it('lists a pending approval, approves it, and prints the resumed task’s answer', async () => {
    const id = await askForRefund();
    const list = await run(['approvals', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ID\s+AGENT\s+ACTION\s+REQUESTED AT\s+STATUS$/m);
    expect(list.stdout).toMatch(
      new RegExp(
        `^${id}\\s+supervisor\\s+Refund order A10086 in full \\(59\\.90 EUR\\)\\s+\\S+Z\\s+pending$`,
        'm',
      ),
    );
    expect(list.stdout).toContain(`Decide with: switchboard approvals approve ${id}`);

    const approved = await run(['approvals', 'approve', id, '--reason', 'regular customer']);
    expect(approved.stderr).toBe('');
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`Approved ${id}: Refund order A10086 in full (59.90 EUR) (as ops).`);
    expect(approved.stdout).toMatch(/^Task [\w-]+ resumes\.$/m);
    expect(approved.stdout).toMatch(/^Order A10086 was refunded\.$/m);
    expect(supervisor.refunds.count).toBe(1);

    const again = await run(['approvals', 'approve', id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(new RegExp(`^Approval ${id} is already approved by ops at \\S+\\.$`, 'm'));
    expect(supervisor.refunds.count).toBe(1);

    expect((await run(['approvals', 'list'])).stdout).toContain('No approvals are pending.');
    const decided = await run(['approvals', 'list', '--decided', '--json']);
    expect(decided.code).toBe(0);
    const { approvals } = JSON.parse(decided.stdout) as {
      approvals: { id: string; status: string; reason: string }[];
    };
    expect(approvals).toMatchObject([
      { id, status: 'approved', decidedBy: 'ops', reason: 'regular customer' },
    ]);
    expect((await run(['approvals', 'list', '--all'])).stdout).toMatch(
      new RegExp(`^${id}\\s.*approved by ops$`, 'm'),
    );
  });

  it('shows every line of an email that waits for approval: its first lines in ask, all in show and list --full', async () => {
    const asked = await run(['ask', 'Please email the customer of order A10086']);
    expect(asked.code).toBe(3);
    const id = /switchboard approvals approve (apr_[0-9a-f]+)/.exec(asked.stdout)?.[1] ?? '';
    expect(asked.stdout).toContain('Body (the first 20 of 30 lines; the whole body is in the arguments):');
    expect(asked.stdout).toMatch(/^ {6}Dear Ada,$/m);
    expect(asked.stdout).not.toContain('evil.example');

    const bodyLines = EMAIL_BODY.split('\n');
    const shown = await run(['approvals', 'show', id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^${id}: pending$`, 'm'));
    expect(shown.stdout).toContain(
      '  action:      Send the email "About order A10086" to ada.lovelace@example.com',
    );
    expect(shown.stdout).toMatch(/^ {2}requested: +\S+ by user:alice$/m);
    expect(shown.stdout).toMatch(/^ {2}arguments \(sha256 [0-9a-f]{64}\):$/m);
    expect(shown.stdout).toContain('    to: ada.lovelace@example.com');
    expect(shown.stdout).toContain(['    body:', ...bodyLines.map((line) => `      ${line}`)].join('\n'));
    expect(shown.stdout).toContain('      Re-enter your card at http://evil.example/pay');

    const full = await run(['approvals', 'list', '--full']);
    expect(full.code).toBe(0);
    expect(full.stdout).toContain(['    body:', ...bodyLines.map((line) => `      ${line}`)].join('\n'));
    const json = JSON.parse((await run(['approvals', 'show', id, '--json'])).stdout) as {
      approval: { arguments: { body: string }; details: string };
    };
    expect(json.approval.arguments.body).toBe(EMAIL_BODY);
    expect(json.approval.details).toContain('Dear Ada,');

    const unknown = await run(['approvals', 'show', 'apr_0000000000000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('There is no approval apr_0000000000000000.');
  });

  it('shows what a user wrote inert: escape sequences, line breaks and overrides in a subject print escaped', async () => {
    const subject = 'Hi\u001b[8m hidden\u001b[0m\r\n  pre-approved by finance \u202eevil\u009b2J';
    const asked = await run(['ask', `Please email the customer of order A10086, subject: ${subject}`]);
    expect(asked.code).toBe(3);
    const id = /switchboard approvals approve (apr_[0-9a-f]+)/.exec(asked.stdout)?.[1] ?? '';
    const views = {
      ask: asked,
      list: await run(['approvals', 'list']),
      full: await run(['approvals', 'list', '--full']),
      show: await run(['approvals', 'show', id]),
      json: await run(['approvals', 'show', id, '--json']),
    };
    for (const [name, view] of Object.entries(views)) {
      expect(view.code, name).toBe(name === 'ask' ? 3 : 0);
      // No ESC, CR, C1 control or bidi override reaches the terminal; lines stay lines.
      expect(raw(view.stdout), name).toEqual([]);
      expect(view.stdout, name).not.toMatch(/^\s*pre-approved by finance/m);
    }
    expect(views.show.stdout).toContain(
      'subject: Hi\\x1b[8m hidden\\x1b[0m\\x0d\\x0a  pre-approved by finance \\u202eevil\\u009b2J',
    );
    expect(views.list.stdout).toContain('Send the email "Hi\\x1b[8m hidden');
    const json = JSON.parse(views.json.stdout) as { approval: { arguments: { subject: string } } };
    expect(json.approval.arguments.subject).toBe(subject);
  });

  it('denies: the agent answers honestly that it did not act (exit 0), with --json', async () => {
    const id = await askForRefund();
    const denied = await run(['approvals', 'deny', id, '--reason', 'outside the refund window', '--json']);
    expect(denied.code).toBe(0);
    const reply = JSON.parse(denied.stdout) as {
      approval: { id: string; status: string };
      taskId: string;
      task: { state: string; answer: string };
      timedOut: boolean;
    };
    expect(reply.approval).toMatchObject({ id, status: 'denied' });
    expect(reply.task).toMatchObject({
      state: 'completed',
      answer: 'I did not refund order A10086: an operator declined the refund.',
    });
    expect(reply.timedOut).toBe(false);
    expect(supervisor.refunds.count).toBe(0);
  });

  it('with --no-wait, returns the task id at once; the task can be followed with tasks get', async () => {
    const id = await askForRefund();
    const approved = await run(['approvals', 'approve', id, '--no-wait']);
    expect(approved.code).toBe(0);
    const taskId = /^Follow it with: switchboard tasks get ([\w-]+)$/m.exec(approved.stdout)?.[1];
    expect(taskId).toBeDefined();
    await expect.poll(() => supervisor.refunds.count).toBe(1);
    const task = await run(['tasks', 'get', String(taskId)]);
    expect(task.stdout).toContain(`Task ${taskId}: completed`);
    expect(task.stdout).toMatch(/^Order A10086 was refunded\.$/m);
  });

  it('decides with the operator’s token alone and prints the resumed task’s answer', async () => {
    const id = await askForRefund();
    const operatorOnly = { SWITCHBOARD_TOKEN: '', SWITCHBOARD_ADMIN_TOKEN: '' };
    const approved = await run(['approvals', 'approve', id, '--token', ADMIN_TOKEN], operatorOnly);
    expect(approved.stderr).toBe('');
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`Approved ${id}: Refund order A10086 in full (59.90 EUR) (as ops).`);
    expect(approved.stdout).toMatch(/^Order A10086 was refunded\.$/m);
    expect(supervisor.refunds.count).toBe(1);

    // Another user's token beside the operator's is not used: the operator follows the task.
    const second = await askForRefund('A10087');
    const denied = await run(['approvals', 'deny', second, '--json'], { SWITCHBOARD_TOKEN: BOB_TOKEN });
    expect(denied.code).toBe(0);
    expect(JSON.parse(denied.stdout)).toMatchObject({
      approval: { id: second, status: 'denied' },
      task: { state: 'completed' },
      timedOut: false,
    });
    expect(supervisor.refunds.count).toBe(1);
  });

  it('refuses a token that may not decide before anything is decided', async () => {
    const id = await askForRefund();
    for (const wait of [[], ['--no-wait']]) {
      const refused = await run(['approvals', 'approve', id, ...wait], {
        SWITCHBOARD_ADMIN_TOKEN: USER_TOKEN,
      });
      expect(refused.code).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain('this credential is not an operator’s');
      expect(hasStack(refused.stderr)).toBe(false);
    }
    const list = await run(['approvals', 'list']);
    expect(list.stdout).toMatch(new RegExp(`^${id}\\s.*pending$`, 'm'));
    expect(supervisor.refunds.count).toBe(0);
  });

  it('gives the server’s message for an unknown approval (exit 1), and names the admin variable on 401 (exit 2)', async () => {
    const unknown = await run(['approvals', 'approve', 'apr_0000000000000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('There is no approval apr_0000000000000000.');
    const badTimeout = await run(['approvals', 'approve', 'apr_0000000000000000', '--timeout', 'soon']);
    expect(badTimeout.code).toBe(2);
    expect(badTimeout.stderr).toContain('--timeout soon is not a number of seconds above 0');
    const refused = await run(['approvals', 'list'], { SWITCHBOARD_ADMIN_TOKEN: 'wrong-token' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /refused the admin token from SWITCHBOARD_ADMIN_TOKEN \(HTTP 401: The admin API needs an operator token.*\)\. Set SWITCHBOARD_ADMIN_TOKEN \(or pass --token\)/,
    );
    const missing = await run(['approvals', 'list'], { SWITCHBOARD_ADMIN_TOKEN: '' });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Set SWITCHBOARD_ADMIN_TOKEN (or pass --token)');
    expect(hasStack(unknown.stderr + refused.stderr + missing.stderr)).toBe(false);
  });

  it('pages the list with --limit and --cursor, oldest first, and reads every page without them', async () => {
    const ids = [];
    for (const orderId of ['A10081', 'A10082', 'A10083']) ids.push(await askForRefund(orderId));
    const first = await run(['approvals', 'list', '--limit', '2']);
    expect(first.code).toBe(0);
    for (const id of ids.slice(0, 2)) expect(first.stdout).toMatch(new RegExp(`^${id}\\s`, 'm'));
    expect(first.stdout).not.toContain(ids[2]);
    const cursor = /switchboard approvals list --limit 2 --cursor (\S+)/.exec(first.stdout)?.[1];
    expect(cursor).toBeDefined();
    const second = await run(['approvals', 'list', '--limit', '2', '--cursor', cursor ?? '', '--json']);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ approvals: [{ id: ids[2] }] });
    expect(JSON.parse(second.stdout).nextCursor).toBeUndefined();
    const all = await run(['approvals', 'list']);
    for (const id of ids) expect(all.stdout).toMatch(new RegExp(`^${id}\\s`, 'm'));
    const bad = await run(['approvals', 'list', '--limit', 'many']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--limit many is not a whole number from 1 to 500');
  });

  it('a canceled task withdraws its approval: the list says who canceled it, and deciding it says why not (exit 1)', async () => {
    const asked = await run(['ask', 'Please refund order A10086', '--json']);
    const { taskId, pendingApprovals } = JSON.parse(asked.stdout) as {
      taskId: string;
      pendingApprovals: { id: string }[];
    };
    const id = pendingApprovals[0]?.id ?? '';
    expect((await run(['tasks', 'cancel', taskId])).code).toBe(0);
    const listed = await run(['approvals', 'list', '--all']);
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\s.*withdrawn \\(task canceled by user:\\S+\\)$`, 'm'));
    const approved = await run(['approvals', 'approve', id]);
    expect(approved.code).toBe(1);
    expect(approved.stderr).toMatch(
      new RegExp(
        `^Approval ${id} was withdrawn: its task ${taskId} was canceled by user:\\S+ at \\S+, so there is nothing to decide\\.$`,
        'm',
      ),
    );
    expect(hasStack(approved.stderr)).toBe(false);
    expect(supervisor.refunds.count).toBe(0);
  });
});
