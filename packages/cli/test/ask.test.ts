import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, BOB_TOKEN, type Supervisor, startSupervisor, USER_TOKEN } from './supervisor-host.ts';
import { closedPort, hasStack, switchboard } from './support.ts';

let supervisor: Supervisor;
beforeAll(async () => {
  supervisor = await startSupervisor();
});
afterAll(async () => {
  await supervisor.close();
});

const ask = (args: string[], env: Record<string, string> = {}) =>
  switchboard(['ask', ...args], { ...supervisor.env, ...env }, { cwd: supervisor.cwd });

describe('switchboard ask', () => {
  it('shows progress as it arrives, then the answer, task, context and trace (exit 0)', async () => {
    supervisor.received.length = 0;
    const { code, stdout, stderr } = await ask(['Where is order A10086?'], {
      SWITCHBOARD_JAEGER_URL: 'http://localhost:16686/',
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`Asking the supervisor at ${supervisor.url}`);
    // The task arrives already working, saying so by its state alone: the first line is the first step.
    expect(stdout).toMatch(/^Asking the supervisor at .*\n {2}> Step 1: thinking$/m);
    expect(stdout).toMatch(/^ {2}> Step 1: running get_order$/m);
    expect(stdout).toMatch(/^Order A10086 has shipped with DHL\.$/m);
    expect(stdout).toMatch(/^Task: [\w-]+ \(completed\)$/m);
    const contextId = /^Context: ([\w-]+) \(follow up with: switchboard ask --context \1 "\.\.\."\)$/m.exec(
      stdout,
    )?.[1];
    expect(contextId).toBeDefined();
    const traceId = /^Trace: ([0-9a-f]{32})$/m.exec(stdout)?.[1];
    expect(stdout).toContain(`  switchboard trace ${traceId}`);
    expect(stdout).toContain(`  http://localhost:16686/trace/${traceId}`);
    // Every request of the command, the card fetch included, carried the printed trace id.
    const a2a = supervisor.received.filter((request) => !request.path.startsWith('/admin'));
    expect(a2a.map((request) => request.path)).toEqual(
      expect.arrayContaining(['/.well-known/agent-card.json', expect.stringMatching(/^\/a2a\//)]),
    );
    expect(new Set(a2a.map((request) => request.traceparent?.split('-')[1]))).toEqual(new Set([traceId]));
  });

  it('prints one JSON object with --json, and continues a conversation with --context and --no-stream', async () => {
    const first = await ask(['--json', 'Where is order A10086?']);
    expect(first.code).toBe(0);
    const result = JSON.parse(first.stdout) as {
      taskId: string;
      contextId: string;
      state: string;
      answer: string;
      pendingApprovals: unknown[];
      traceId: string;
      progress: { text: string; metadata: Record<string, unknown> }[];
    };
    expect(result).toMatchObject({
      state: 'completed',
      answer: 'Order A10086 has shipped with DHL.',
      pendingApprovals: [],
    });
    expect(result.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(result.progress).toContainEqual({
      text: 'Step 1: running get_order',
      state: 'working',
      metadata: expect.objectContaining({ event: 'tool-started', tool: 'get_order' }),
    });

    const followUp = await ask(['--no-stream', '--json', '--context', result.contextId, 'And order A20002?']);
    expect(followUp.code).toBe(0);
    const next = JSON.parse(followUp.stdout) as { taskId: string; contextId: string; answer: string };
    expect(next.contextId).toBe(result.contextId);
    expect(next.taskId).not.toBe(result.taskId);
    expect(next.answer).toBe('Order A20002 has shipped with DHL.');
  });

  it('stops on a dangerous action: prints the approval and the commands to decide it (exit 3)', async () => {
    const { code, stdout } = await ask(['Please refund order A10086']);
    expect(code).toBe(3);
    expect(stdout).toContain('Waiting for a human: 1 approval is needed.');
    expect(stdout).toContain('The supervisor agent wants to: Refund order A10086 in full (59.90 EUR).');
    const id = /approve: switchboard approvals approve (apr_[0-9a-f]+)$/m.exec(stdout)?.[1];
    expect(id).toBeDefined();
    expect(stdout).toContain(`deny:    switchboard approvals deny ${id} --reason "<why>"`);
    expect(stdout).toMatch(/^Task: [\w-]+ \(input-required\)$/m);
    expect(supervisor.refunds.count).toBe(0);
  });

  it('says plainly when the supervisor is unreachable (exit 1, no stack trace)', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const { code, stdout, stderr } = await ask(['Where is order A10086?'], { SWITCHBOARD_URL: url });
    expect(code).toBe(1);
    expect(stderr).toMatch(
      new RegExp(`^Cannot reach the supervisor at ${url} \\(.*ECONNREFUSED.*\\)\\. Is it running\\?`),
    );
    expect(stderr).toContain('The URL comes from SWITCHBOARD_URL');
    expect(hasStack(stdout + stderr)).toBe(false);
  });

  it('names the variable to set when the token is missing or refused (exit 2)', async () => {
    const missing = await ask(['Hello'], { SWITCHBOARD_TOKEN: '' });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Set SWITCHBOARD_TOKEN (or pass --token) to a user’s bearer token.');
    expect(missing.stderr).toContain('.switchboard/dev.json');
    const refused = await ask(['Hello', '--token', 'not-a-valid-token']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /refused the user token from --token \(HTTP 401: .*\)\. Set SWITCHBOARD_TOKEN/,
    );
    expect(hasStack(missing.stderr + refused.stderr)).toBe(false);
  });

  it('falls back to .switchboard/dev.json, and says which field of a broken one is wrong (exit 2)', async () => {
    const dir = join(supervisor.cwd, 'with-dev-file');
    await mkdir(join(dir, '.switchboard'), { recursive: true });
    const file = join(dir, '.switchboard', 'dev.json');
    const noEnv = { SWITCHBOARD_URL: '', SWITCHBOARD_TOKEN: '', SWITCHBOARD_ADMIN_TOKEN: '' };
    await writeFile(
      file,
      JSON.stringify({
        supervisorUrl: supervisor.url,
        token: USER_TOKEN,
        adminToken: 'admin',
        redisUrl: 'redis://127.0.0.1:6379',
        prefix: 'switchboard-dev',
      }),
    );
    const works = await switchboard(['ask', 'Where is order A10086?'], noEnv, { cwd: dir });
    expect(works.code).toBe(0);
    expect(works.stdout).toContain('Order A10086 has shipped with DHL.');
    await writeFile(file, JSON.stringify({ supervisorUrl: 'localhost:8080', token: USER_TOKEN }));
    const broken = await switchboard(['ask', 'Where is order A10086?'], noEnv, { cwd: dir });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(
      /dev\.json is not valid: supervisorUrl: write an http\(s\) URL.*adminToken/,
    );
  });

  it('acts as another caller of the local stack with --as, from the identities of .switchboard/dev.json', async () => {
    const dir = join(supervisor.cwd, 'with-identities');
    await mkdir(join(dir, '.switchboard'), { recursive: true });
    await writeFile(
      join(dir, '.switchboard', 'dev.json'),
      JSON.stringify({
        supervisorUrl: supervisor.url,
        token: USER_TOKEN,
        adminToken: ADMIN_TOKEN,
        redisUrl: 'redis://127.0.0.1:6379',
        prefix: 'switchboard-dev',
        identities: { 'customer:alice': USER_TOKEN, 'customer:bob': BOB_TOKEN, 'operator:ops': ADMIN_TOKEN },
      }),
    );
    const noEnv = { SWITCHBOARD_URL: '', SWITCHBOARD_TOKEN: '', SWITCHBOARD_ADMIN_TOKEN: '' };
    const tokensOf = async (args: string[]) => {
      supervisor.received.length = 0;
      const result = await switchboard(['ask', ...args, 'Where is order A10086?'], noEnv, { cwd: dir });
      const sent = new Set(supervisor.received.filter((r) => r.path.startsWith('/a2a')).map((r) => r.token));
      return { ...result, sent };
    };
    const asBob = await tokensOf(['--as', 'bob']);
    expect(asBob.code).toBe(0);
    expect(asBob.sent).toEqual(new Set([BOB_TOKEN]));
    const asOperator = await tokensOf(['--as', 'operator']);
    expect({ code: asOperator.code, sent: asOperator.sent, stderr: asOperator.stderr }).toEqual({
      code: 0,
      sent: new Set([ADMIN_TOKEN]),
      stderr: '',
    });
    expect((await tokensOf([])).sent).toEqual(new Set([USER_TOKEN]));

    const unknown = await tokensOf(['--as', 'C999']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      '--as C999: the local stack has no such caller. Pick one of: user:alice, user:bob, operator:ops',
    );
    expect(unknown.sent.size).toBe(0);
    const both = await tokensOf(['--as', 'bob', '--token', USER_TOKEN]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Pass either --as (a caller of the local stack) or --token, not both.');
  });
});
