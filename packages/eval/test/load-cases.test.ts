import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callerOf, EvaluationError, loadCases } from '../src/index.ts';

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

const valid = (id: string, suite = 'normal', extra = '', who = 'customer: C001') =>
  `id: ${id}\nsuite: ${suite}\ntitle: A case\n${who}\nturns:\n  - user: "Where is my order A10086?"\n${extra}`;

const FIXTURE_CUSTOMERS = ['C001', 'C002', 'C003'];

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
        'customer: C001',
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
        'id: operator-first\nsuite: normal\ntitle: x\ncustomer: C001\nturns:\n  - approve: all\n',
    });
    expect(problems).toEqual([
      'evals/normal/operator-first.yaml: turns[0] must be a user turn: the conversation starts with what the user says',
      'evals/boundary/twice.yaml: id "twice" is also used by evals/normal/twice.yaml; ids must be unique across suites',
    ]);
  });

  it('reads who asks: a customer, or an operator', async () => {
    const cwd = await casesDir({
      'normal/as-grace.yaml': valid('as-grace', 'normal', '', 'customer: C002'),
      'normal/as-operator.yaml': valid('as-operator', 'normal', '', 'as: operator'),
    });
    const cases = await loadCases({ dir: join(cwd, 'evals'), cwd, customers: FIXTURE_CUSTOMERS });
    expect(cases.map(({ case: evalCase }) => [evalCase.id, callerOf(evalCase)])).toEqual([
      ['as-grace', { kind: 'customer', id: 'C002' }],
      ['as-operator', { kind: 'operator' }],
    ]);
  });

  it('refuses a case that names nobody, both a customer and an operator, or a customer the system does not have', async () => {
    const cwd = await casesDir({
      'normal/nobody.yaml': valid('nobody', 'normal', '', ''),
      'normal/both.yaml': valid('both', 'normal', '', 'customer: C001\nas: operator'),
      'normal/stranger.yaml': valid('stranger', 'normal', '', 'customer: C099'),
      'normal/admin.yaml': valid('admin', 'normal', '', 'as: admin'),
      'normal/self-approval.yaml': valid('self-approval', 'normal', '  - approve: all\n', 'as: operator'),
    });
    const error = await loadCases({ dir: join(cwd, 'evals'), cwd, customers: FIXTURE_CUSTOMERS }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(EvaluationError);
    expect((error as EvaluationError).problems).toEqual([
      'evals/normal/admin.yaml: as must be operator (or give customer: <id> instead)',
      'evals/normal/both.yaml: customer and as: operator exclude each other: give one of them',
      'evals/normal/nobody.yaml: customer is required: who asks, a customer id of the system (e.g. customer: C001), or as: operator',
      'evals/normal/self-approval.yaml: turns[1] decides an approval in a case asked as: operator; the runner decides as that same operator, and nobody approves their own request: ask as a customer',
      'evals/normal/stranger.yaml: customer "C099" is not a customer of the system (its customers: C001, C002, C003)',
    ]);
    // Without the system's customers, any id is accepted (the target then has no token for it).
    const loose = await casesDir({
      'normal/stranger.yaml': valid('stranger', 'normal', '', 'customer: C099'),
    });
    expect((await loadCases({ dir: join(loose, 'evals'), cwd: loose }))[0]?.case.customer).toBe('C099');
  });

  it('says where to put cases when there are none', async () => {
    const cwd = await casesDir({ 'normal/.keep': '' });
    await expect(loadCases({ dir: join(cwd, 'evals'), cwd })).rejects.toThrow(
      'No eval cases in evals: add files like evals/normal/<id>.yaml, or point --cases at the directory that holds the suite folders.',
    );
  });
});
