import { readdir, readFile } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { EvaluationError } from '../errors.ts';
import { LEGACY_NO_CROSS_USER_DATA, LEGACY_USER_FIELD, LEGACY_USERS_OPTION } from '../legacy-vocabulary.ts';
import { describeIssues } from './case-issues.ts';
import { EvalCase, SUITES, type Suite } from './eval-case.ts';

/** A case and the file it came from. */
export interface LoadedCase {
  case: EvalCase;
  /** The file, relative to the working directory when under it (for messages). */
  file: string;
}

/** Options of {@link loadCases}. */
export interface LoadCasesOptions {
  /** The cases directory, holding one folder per suite (`evals/normal/*.yaml`, ...). */
  dir: string;
  /** Only this suite (default: every suite folder that exists). */
  suite?: Suite | undefined;
  /** Where file names in messages are relative to (default: the working directory). */
  cwd?: string;
  /**
   * The user ids a case may name in `user:`: the team's users (its `users.ids`), or, against a
   * deployment, the users whose tokens were given. A case naming another is a case-file error that
   * names these users and {@link LoadCasesOptions.addUser}. Default: any id.
   */
  users?: readonly string[] | undefined;
  /**
   * How to make another user known, for the error about a case naming an unknown one, e.g.
   * `declare it in the team's users.ids` or `give its token in SWITCHBOARD_EVAL_TOKENS`.
   */
  addUser?: string | undefined;
  /** @deprecated Renamed `users`; read when `users` is not given, for one release. */
  [LEGACY_USERS_OPTION]?: readonly string[] | undefined;
}

const CASE_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** Whether `value` names a suite. */
export function isSuite(value: string): value is Suite {
  return (SUITES as readonly string[]).includes(value);
}

async function listSuite(dir: string, suite: Suite): Promise<string[]> {
  try {
    const entries = await readdir(join(dir, suite), { withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile() && CASE_EXTENSIONS.has(extname(entry.name)))
      .map((entry) => join(dir, suite, entry.name))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

function parseText(file: string, text: string): { value: unknown } | { problem: string } {
  try {
    if (extname(file) === '.json') return { value: JSON.parse(text) };
    return { value: parseYaml(text, { prettyErrors: true }) };
  } catch (error) {
    const what = extname(file) === '.json' ? 'JSON' : 'YAML';
    const detail =
      error instanceof YAMLParseError
        ? (error.message.split('\n')[0] ?? '').replace(/:$/, '')
        : error instanceof Error
          ? error.message
          : String(error);
    return { problem: `is not valid ${what}: ${detail}` };
  }
}

/** Problems of the file's id and suite against its name and folder, read from the raw value. */
function placeProblems(value: unknown, fileName: string, suite: Suite): string[] {
  const raw = (value && typeof value === 'object' ? value : {}) as { id?: unknown; suite?: unknown };
  const stem = basename(fileName, extname(fileName));
  const problems: string[] = [];
  if (typeof raw.id === 'string' && raw.id !== stem) {
    problems.push(
      `id "${raw.id}" must equal the file name: rename the file to ${raw.id}${extname(fileName)} or set id: ${stem}`,
    );
  }
  if (typeof raw.suite === 'string' && raw.suite !== suite) {
    problems.push(
      `suite "${raw.suite}" must equal the folder "${suite}": move the file or set suite: ${suite}`,
    );
  }
  return problems;
}

/** Who may be named in a case, and how to make another known (for messages). */
interface KnownUsers {
  users?: readonly string[] | undefined;
  addUser?: string | undefined;
}

/**
 * Problems of who asks: exactly one of `user` and `as: operator`, a user the team has, and the
 * 0.2 field (still read as `user`) naming the same user when both are given.
 */
function callerProblems(value: unknown, { users, addUser }: KnownUsers): string[] {
  const raw = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const legacy = raw[LEGACY_USER_FIELD];
  if (raw.user !== undefined && legacy !== undefined && raw.user !== legacy) {
    return [
      `user "${String(raw.user)}" and ${LEGACY_USER_FIELD} "${String(legacy)}" name two users; ${LEGACY_USER_FIELD} is the deprecated name of user: keep only user`,
    ];
  }
  const user = raw.user ?? legacy;
  if (user === undefined && raw.as === undefined) {
    return [
      `user is required: who asks, one of the team's users (e.g. user: ${users?.[0] ?? 'ada'}), or as: operator`,
    ];
  }
  if (user !== undefined && raw.as !== undefined) {
    return ['user and as: operator exclude each other: give one of them'];
  }
  if (typeof user === 'string' && users && !users.includes(user.trim())) {
    const known = users.length > 0 ? `known: ${users.join(', ')}` : 'no user is known';
    return [
      `user "${user}" is not a known user (${known})${addUser ? `; to ask as "${user}", ${addUser}` : ''}`,
    ];
  }
  return [];
}

/** A case read as its current fields: the 0.2 names of `user` and `noCrossUserData` under the new ones. */
function currentFields(evalCase: EvalCase): EvalCase {
  const { [LEGACY_USER_FIELD]: legacyUser, ...rest } = evalCase;
  const { [LEGACY_NO_CROSS_USER_DATA]: legacyNoCross, ...expect } = rest.expect;
  const user = rest.user ?? legacyUser;
  const noCrossUserData = expect.noCrossUserData ?? legacyNoCross;
  return {
    ...rest,
    ...(user === undefined ? {} : { user }),
    expect: { ...expect, ...(noCrossUserData === undefined ? {} : { noCrossUserData }) },
  };
}

/** Checks one parsed file; returns the case or the problems, each without the file name. */
export function checkCaseValue({
  value,
  fileName,
  suite,
  users,
  addUser,
  [LEGACY_USERS_OPTION]: legacyUsers,
}: {
  value: unknown;
  /** The file's name, e.g. `normal-order-two-step.yaml`. */
  fileName: string;
  /** The suite folder it is in. */
  suite: Suite;
  /** The user ids a case may name (default: any). */
  users?: readonly string[] | undefined;
  /** How to make another user known, for the message about an unknown one. */
  addUser?: string | undefined;
  /** @deprecated Renamed `users`. */
  [LEGACY_USERS_OPTION]?: readonly string[] | undefined;
}): { case: EvalCase } | { problems: string[] } {
  const parsed = EvalCase.safeParse(value, { reportInput: true });
  const problems = parsed.success ? [] : describeIssues(parsed.error.issues);
  problems.push(...callerProblems(value, { users: users ?? legacyUsers, addUser }));
  problems.push(...placeProblems(value, fileName, suite));
  if (parsed.success && !('user' in (parsed.data.turns[0] ?? {}))) {
    problems.push('turns[0] must be a user turn: the conversation starts with what the user says');
  }
  if (parsed.success && parsed.data.as === 'operator') {
    const decided = parsed.data.turns.findIndex((turn) => !('user' in turn));
    if (decided >= 0) {
      problems.push(
        `turns[${decided}] decides an approval in a case asked as: operator; the runner decides as that same operator, and nobody approves their own request: ask as a user`,
      );
    }
  }
  return parsed.success && problems.length === 0 ? { case: currentFields(parsed.data) } : { problems };
}

/**
 * Reads the eval cases under `dir`: every `<suite>/<id>.yaml` (or `.yml`, `.json`), validated with
 * {@link EvalCase}; each names who asks (`user`, one of `users` when given, or `as: operator`; the 0.2 field
 * of `user` is still read as it). Throws `EvaluationError` `INVALID_CASES` listing every problem of every bad file, one
 * line each, e.g. `evals/normal/foo.yaml: expect.tools.match must be subset, exact or in-order`;
 * `CASES_NOT_FOUND` when there is no case at all. Cases come sorted by suite, then id.
 *
 * @example
 * const cases = await loadCases({ dir: 'evals', suite: 'malicious' });
 */
export async function loadCases({
  dir,
  suite,
  cwd = process.cwd(),
  users,
  addUser,
  [LEGACY_USERS_OPTION]: legacyUsers,
}: LoadCasesOptions): Promise<LoadedCase[]> {
  const suites = suite ? [suite] : [...SUITES];
  const show = (file: string) => (file.startsWith(cwd) ? relative(cwd, file) : file);
  const problems: string[] = [];
  const loaded: LoadedCase[] = [];
  for (const name of suites) {
    for (const path of await listSuite(dir, name)) {
      const file = show(path);
      const parsed = parseText(path, await readFile(path, 'utf8'));
      if ('problem' in parsed) {
        problems.push(`${file}: ${parsed.problem}`);
        continue;
      }
      const checked = checkCaseValue({
        value: parsed.value,
        fileName: basename(path),
        suite: name,
        users: users ?? legacyUsers,
        addUser,
      });
      if ('problems' in checked) problems.push(...checked.problems.map((problem) => `${file}: ${problem}`));
      else loaded.push({ case: checked.case, file });
    }
  }
  const seen = new Map<string, string>();
  for (const { case: evalCase, file } of loaded) {
    const first = seen.get(evalCase.id);
    if (first)
      problems.push(
        `${file}: id "${evalCase.id}" is also used by ${first}; ids must be unique across suites`,
      );
    else seen.set(evalCase.id, file);
  }
  if (problems.length > 0) {
    throw new EvaluationError('INVALID_CASES', {
      message: `${problems.length === 1 ? 'An eval case file is' : 'Eval case files are'} not valid:\n${problems.map((p) => `  ${p}`).join('\n')}`,
      problems,
    });
  }
  if (loaded.length === 0) {
    throw new EvaluationError('CASES_NOT_FOUND', {
      message: `No eval cases in ${show(dir)}${suite ? `/${suite}` : ''}: add files like ${show(join(dir, suite ?? 'normal'))}/<id>.yaml, or point --cases at the directory that holds the suite folders.`,
    });
  }
  return loaded.sort((a, b) =>
    a.case.suite === b.case.suite
      ? a.case.id.localeCompare(b.case.id)
      : SUITES.indexOf(a.case.suite) - SUITES.indexOf(b.case.suite),
  );
}
