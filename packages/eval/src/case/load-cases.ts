import { readdir, readFile } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { EvaluationError } from '../errors.ts';
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
   * The customer ids a case may name in `customer:` (the system's customers, e.g. the fixture's
   * C001–C008); a case naming another is a case-file error. Default: any id.
   */
  customers?: readonly string[] | undefined;
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

/** Problems of who asks: exactly one of `customer` and `as: operator`, and a customer the system has. */
function callerProblems(value: unknown, customers: readonly string[] | undefined): string[] {
  const raw = (value && typeof value === 'object' ? value : {}) as { customer?: unknown; as?: unknown };
  if (raw.customer === undefined && raw.as === undefined) {
    return [
      `customer is required: who asks, a customer id of the system (e.g. customer: ${customers?.[0] ?? 'C001'}), or as: operator`,
    ];
  }
  if (raw.customer !== undefined && raw.as !== undefined) {
    return ['customer and as: operator exclude each other: give one of them'];
  }
  if (typeof raw.customer === 'string' && customers && !customers.includes(raw.customer.trim())) {
    return [
      `customer "${raw.customer}" is not a customer of the system (its customers: ${customers.join(', ')})`,
    ];
  }
  return [];
}

/** Checks one parsed file; returns the case or the problems, each without the file name. */
export function checkCaseValue({
  value,
  fileName,
  suite,
  customers,
}: {
  value: unknown;
  /** The file's name, e.g. `normal-order-two-step.yaml`. */
  fileName: string;
  /** The suite folder it is in. */
  suite: Suite;
  /** The customer ids a case may name (default: any). */
  customers?: readonly string[] | undefined;
}): { case: EvalCase } | { problems: string[] } {
  const parsed = EvalCase.safeParse(value, { reportInput: true });
  const problems = parsed.success ? [] : describeIssues(parsed.error.issues);
  problems.push(...callerProblems(value, customers));
  problems.push(...placeProblems(value, fileName, suite));
  if (parsed.success && !('user' in (parsed.data.turns[0] ?? {}))) {
    problems.push('turns[0] must be a user turn: the conversation starts with what the user says');
  }
  if (parsed.success && parsed.data.as === 'operator') {
    const decided = parsed.data.turns.findIndex((turn) => !('user' in turn));
    if (decided >= 0) {
      problems.push(
        `turns[${decided}] decides an approval in a case asked as: operator; the runner decides as that same operator, and nobody approves their own request: ask as a customer`,
      );
    }
  }
  return parsed.success && problems.length === 0 ? { case: parsed.data } : { problems };
}

/**
 * Reads the eval cases under `dir`: every `<suite>/<id>.yaml` (or `.yml`, `.json`), validated with
 * {@link EvalCase}; each names who asks (`customer`, one of `customers` when given, or `as: operator`). Throws `EvaluationError` `INVALID_CASES` listing every problem of every bad file, one
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
  customers,
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
        customers,
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
