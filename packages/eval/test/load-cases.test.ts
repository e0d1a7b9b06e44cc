import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callerOf, EvaluationError, isCrossUserCase, loadCases } from '../src/index.ts';

const FIXTURES = new URL('./fixtures/cases/', import.meta.url).pathname;

/** A temporary working directory with `evals/<suite>/<file>` holding each text. */
async function casesDir(files: Record<string, string>): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'switchboard-eval-cases-'));
  for (const [path, text] of Object.entries(files)) {
    const full = join(cwd, 'evals', path);
    await mkdir(join(full, '..'), { recursive: true });
    await writeFile(full, text);
  }
  return cwd;
}

async function problemsOf(files: Record<string, string>): Promise<string[]> {
  const cwd = await casesDir(files);
  const error = await loadCases({ dir: join(cwd, 'evals'), cwd }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(EvaluationError);
  expect((error as EvaluationError).code).toBe('INVALID_CASES');
  return [...(error as EvaluationError).problems];
}

const valid = (id: string, suite = 'normal', extra = '', who = 'user: traveller-1') =>
  `id: ${id}\nsuite: ${suite}\ntitle: A case\n${who}\nturns:\n  - user: "Where is my order A10086?"\n${extra}`;

/** A team whose users are not a shop's customers. */
const TEAM_USERS = ['traveller-1', 'traveller-2', 'traveller-3'];

describe('loadCases', () => {
  it('reads every suite folder, sorted by suite then id, YAML and JSON alike', async () => {
    const cwd = await casesDir({
      'malicious/b-case.yaml': valid('b-case', 'malicious'),
      'normal/z-case.json': JSON.stringify({
        id: 'z-case',
        suite: 'normal',
        title: 'J',
        customer: 'C002',
        turns: [{ user: 'hi' }],
      }),
      'normal/a-case.yaml': valid('a-case'),
      'README.md': '# not a case',
    });
    const cases = await loadCases({ dir: join(cwd, 'evals'), cwd });
    expect(cases.map((loaded) => `${loaded.file} ${loaded.case.id}`)).toEqual([
      'evals/normal/a-case.yaml a-case',
      'evals/normal/z-case.json z-case',
      'evals/malicious/b-case.yaml b-case',
    ]);
    expect(cases[0]?.case.expect).toEqual({});
    const only = await loadCases({ dir: join(cwd, 'evals'), suite: 'malicious', cwd });
    expect(only.map((loaded) => loaded.case.id)).toEqual(['b-case']);
  });

  it('loads the fixture cases with their defaults', async () => {
    const cases = await loadCases({ dir: FIXTURES });
    const refund = cases.find((loaded) => loaded.case.id === 'fixture-refund-approved')?.case;
    expect(refund?.turns).toEqual([
      { user: 'Please refund order A10086, the kettle arrived broken.' },
      { approve: 'all', reason: 'Photo of the broken kettle checked' },
    ]);
    expect(refund?.expect.tools?.match).toBe('exact');
  });

  it('names the file and the JSON path of a bad match mode', async () => {
    const problems = await problemsOf({
      'normal/foo.yaml': valid(
        'foo',
        'normal',
        'expect:\n  tools:\n    match: fuzzy\n    calls: [{ tool: get_order }]\n',
      ),
    });
    expect(problems).toEqual(['evals/normal/foo.yaml: expect.tools.match must be subset, exact or in-order']);
  });

  it('lists every problem of every bad file, each with its file and path', async () => {
    const problems = await problemsOf({
      'normal/bad.yaml': [
        'id: bad',
        'suite: normal',
        'user: C001',
        'turns:',
        '  - user: "hi"',
        '  - approve: some',
        'faults:',
        '  - { agent: orders, tool: get_order, kind: slow, times: 0 }',
        'expect:',
        '  tools: { calls: [{ tool: get_order, agnt: orders }] }',
        '  state: done',
        '  maxSteps: -1',
      ].join('\n'),
      'boundary/other.yaml': valid('something-else', 'normal'),
      'boundary/broken.yaml': 'id: [unclosed\n',
      'failure/Bad_Id.yaml': valid('Bad_Id', 'failure'),
    });
    expect(problems).toEqual([
      'evals/normal/bad.yaml: title is required',
      'evals/normal/bad.yaml: turns[1] must be { user: "<text>" }, { approve: all } or { deny: all } (approve and deny take an optional reason)',
      'evals/normal/bad.yaml: faults[0].kind must be timeout, error or malformed',
      'evals/normal/bad.yaml: faults[0].times must be a whole number of at least 1',
      'evals/normal/bad.yaml: expect.tools.calls[0] has an unknown key "agnt"',
      'evals/normal/bad.yaml: expect.state must be completed, input-required, failed, rejected or canceled',
      'evals/normal/bad.yaml: expect.maxSteps must be a whole number of at least 1',
      expect.stringMatching(/^evals\/boundary\/broken\.yaml: is not valid YAML: .+line 2, column 1$/),
      'evals/boundary/other.yaml: id "something-else" must equal the file name: rename the file to something-else.yaml or set id: other',
      'evals/boundary/other.yaml: suite "normal" must equal the folder "boundary": move the file or set suite: boundary',
      'evals/failure/Bad_Id.yaml: id must be kebab-case (lower-case words joined by "-"), e.g. normal-order-two-step',
    ]);
  });

  it('refuses ids used twice across suites, and a conversation that does not start with the user', async () => {
    const problems = await problemsOf({
      'normal/twice.yaml': valid('twice'),
      'boundary/twice.yaml': valid('twice', 'boundary'),
      'normal/operator-first.yaml':
        'id: operator-first\nsuite: normal\ntitle: x\nuser: C001\nturns:\n  - approve: all\n',
    });
    expect(problems).toEqual([
      'evals/normal/operator-first.yaml: turns[0] must be a user turn: the conversation starts with what the user says',
      'evals/boundary/twice.yaml: id "twice" is also used by evals/normal/twice.yaml; ids must be unique across suites',
    ]);
  });

  it('reads who asks: one of the team’s users, or an operator', async () => {
    const cwd = await casesDir({
      'normal/as-traveller.yaml': valid('as-traveller', 'normal', '', 'user: traveller-2'),
      'normal/as-operator.yaml': valid('as-operator', 'normal', '', 'as: operator'),
    });
    const cases = await loadCases({ dir: join(cwd, 'evals'), cwd, users: TEAM_USERS });
    expect(cases.map(({ case: evalCase }) => [evalCase.id, callerOf(evalCase)])).toEqual([
      ['as-operator', { kind: 'operator' }],
      ['as-traveller', { kind: 'user', id: 'traveller-2' }],
    ]);
  });

  it('refuses a case that names nobody, both a user and an operator, or a user the team does not have', async () => {
    const cwd = await casesDir({
      'normal/nobody.yaml': valid('nobody', 'normal', '', ''),
      'normal/both.yaml': valid('both', 'normal', '', 'user: traveller-1\nas: operator'),
      'normal/stranger.yaml': valid('stranger', 'normal', '', 'user: traveller-9'),
      'normal/admin.yaml': valid('admin', 'normal', '', 'as: admin'),
      'normal/self-approval.yaml': valid('self-approval', 'normal', '  - approve: all\n', 'as: operator'),
    });
    const error = await loadCases({
      dir: join(cwd, 'evals'),
      cwd,
      users: TEAM_USERS,
      addUser: "declare it in the team's users.ids",
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EvaluationError);
    expect((error as EvaluationError).problems).toEqual([
      'evals/normal/admin.yaml: as must be operator (or give user: <id> instead)',
      'evals/normal/both.yaml: user and as: operator exclude each other: give one of them',
      "evals/normal/nobody.yaml: user is required: who asks, one of the team's users (e.g. user: traveller-1), or as: operator",
      'evals/normal/self-approval.yaml: turns[1] decides an approval in a case asked as: operator; the runner decides as that same operator, and nobody approves their own request: ask as a user',
      'evals/normal/stranger.yaml: user "traveller-9" is not a known user (known: traveller-1, traveller-2, traveller-3); to ask as "traveller-9", declare it in the team\'s users.ids',
    ]);
    // Without the team's users, any id is accepted (the target then has no token for it).
    const loose = await casesDir({
      'normal/stranger.yaml': valid('stranger', 'normal', '', 'user: traveller-9'),
    });
    expect((await loadCases({ dir: join(loose, 'evals'), cwd: loose }))[0]?.case.user).toBe('traveller-9');
  });

  it('reads a 0.2 case file: its customer as the user, its old tag and expectation as the new ones', async () => {
    const old = `${valid('old-words', 'normal', '', 'customer: traveller-1').replace('title:', 'tags: [cross-customer]\ntitle:')}expect:\n  noCrossCustomerData: true\n`;
    const cwd = await casesDir({ 'normal/old-words.yaml': old });
    const [loaded] = await loadCases({ dir: join(cwd, 'evals'), cwd, customers: TEAM_USERS });
    expect(loaded?.case).toMatchObject({ user: 'traveller-1', expect: { noCrossUserData: true } });
    expect(loaded && callerOf(loaded.case)).toEqual({ kind: 'user', id: 'traveller-1' });
    expect(loaded && isCrossUserCase(loaded.case)).toBe(true);
    const same = await casesDir({
      'normal/same.yaml': valid('same', 'normal', '', 'user: traveller-1\ncustomer: traveller-1'),
      'normal/differ.yaml': valid('differ', 'normal', '', 'user: traveller-1\ncustomer: traveller-2'),
    });
    const error = await loadCases({ dir: join(same, 'evals'), cwd: same, users: TEAM_USERS }).catch(
      (caught: unknown) => caught,
    );
    expect((error as EvaluationError).problems).toEqual([
      'evals/normal/differ.yaml: user "traveller-1" and customer "traveller-2" name two users; customer is the deprecated name of user: keep only user',
    ]);
  });

  it('says where to put cases when there are none', async () => {
    const cwd = await casesDir({ 'normal/.keep': '' });
    await expect(loadCases({ dir: join(cwd, 'evals'), cwd })).rejects.toThrow(
      'No eval cases in evals: add files like evals/normal/<id>.yaml, or point --cases at the directory that holds the suite folders.',
    );
  });
});
