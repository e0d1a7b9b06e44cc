import { access, readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { type AnyTool, defineTool } from '@switchboard/agent';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { describeIssues } from '../case/case-issues.ts';
import { EvaluationError } from '../errors.ts';

/** One tool of a routing catalogue, as written in `evals/routing/tools/*.yaml`. */
export const CatalogueTool = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be snake_case, e.g. lookup_order'),
  summary: z.string().min(1, 'must say what the tool does'),
  when: z.string().min(1, 'must say when to use the tool'),
  not: z.string().min(1).optional(),
  params: z.array(z.string().regex(/^[a-zA-Z][a-zA-Z0-9]*$/, 'must be a camelCase parameter name')),
});
export type CatalogueTool = z.infer<typeof CatalogueTool>;

/** What should serve a labelled request: a tool, tools, a clarifying question, or nothing at all. */
export const RoutingExpectation = z.union([
  z.literal('clarify'),
  z.literal('unsupported'),
  z.string().regex(/^[a-z][a-z0-9_]*$/, 'must name a tool, or be clarify or unsupported'),
  z.array(z.string()).min(2, 'a list names the two or more tools a request needs'),
]);
export type RoutingExpectation = z.infer<typeof RoutingExpectation>;

/** One labelled request of `evals/routing/requests.yaml`. */
export const LabelledRequest = z.strictObject({ text: z.string().min(1), expect: RoutingExpectation });
export type LabelledRequest = z.infer<typeof LabelledRequest>;

/** The catalogue's tools (defined as an agent would have them) and its labelled requests. */
export interface RoutingCatalogue {
  tools: AnyTool[];
  requests: LabelledRequest[];
  /** The file the requests came from, inside the catalogue's folder (e.g. `requests.yaml`). */
  requestsFile: string;
}

/** The tools a request expects (empty for `clarify` and `unsupported`). */
export function expectedTools(expect: RoutingExpectation): string[] {
  if (Array.isArray(expect)) return expect;
  return expect === 'clarify' || expect === 'unsupported' ? [] : [expect];
}

/**
 * A catalogue tool as an agent defines it. Its parameters are optional strings: the evaluation reads
 * which tool is chosen, not whether the request carries every argument.
 */
function toTool(entry: CatalogueTool): AnyTool {
  const input = z.object(Object.fromEntries(entry.params.map((param) => [param, z.string().optional()])));
  return defineTool({
    name: entry.name,
    summary: entry.summary,
    whenToUse: entry.when,
    ...(entry.not ? { whenNotToUse: entry.not } : {}),
    input,
    risk: 'read',
    handler: () => ({ ok: true }),
  });
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

async function readYaml(file: string, cwd: string, problems: string[]): Promise<unknown[]> {
  try {
    const value: unknown = parseYaml(await readFile(file, 'utf8'));
    if (Array.isArray(value)) return value;
    problems.push(`${relative(cwd, file)}: must be a YAML list`);
  } catch (error) {
    problems.push(`${relative(cwd, file)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return [];
}

/** Options of {@link loadRoutingCatalogue}. */
export interface LoadRoutingCatalogueOptions {
  /** The catalogue's folder, holding `tools/*.yaml` and the request files (e.g. `evals/routing`). */
  dir: string;
  /**
   * The labelled requests to load: a YAML file of `dir`, by name with or without `.yaml` (default
   * `requests.yaml`, the set the router is tuned on; `holdout` is the set kept out of tuning).
   */
  requests?: string;
  /** Paths in messages are relative to it (default the working directory). */
  cwd?: string;
}

/**
 * Loads `<dir>/tools/*.yaml` (the tools) and `<dir>/requests.yaml`, or the file `requests` names (the
 * labelled requests); throws `CASES_NOT_FOUND` when either is missing, and `INVALID_CASES` naming
 * every malformed entry, duplicate tool and request that names an unknown tool.
 */
export async function loadRoutingCatalogue({
  dir,
  requests: requestsName = 'requests.yaml',
  cwd = process.cwd(),
}: LoadRoutingCatalogueOptions): Promise<RoutingCatalogue> {
  const requestsFile = /\.ya?ml$/.test(requestsName) ? requestsName : `${requestsName}.yaml`;
  if (!/^[\w.-]+$/.test(requestsFile))
    throw new EvaluationError('CASES_NOT_FOUND', {
      message: `The requests file "${requestsName}" must be a file name of the catalogue's folder, e.g. requests or holdout.`,
    });
  const problems: string[] = [];
  let files: string[];
  try {
    files = (await readdir(join(dir, 'tools'))).filter((file) => /\.ya?ml$/.test(file)).sort();
  } catch (error) {
    throw new EvaluationError('CASES_NOT_FOUND', {
      message: `No routing catalogue at ${relative(cwd, join(dir, 'tools'))}: pass the folder that holds tools/*.yaml and requests.yaml (e.g. evals/routing).`,
      cause: error,
    });
  }
  const entries: CatalogueTool[] = [];
  for (const file of files) {
    const list = await readYaml(join(dir, 'tools', file), cwd, problems);
    list.forEach((value, index) => {
      const parsed = CatalogueTool.safeParse(value);
      if (parsed.success) entries.push(parsed.data);
      else
        problems.push(
          ...describeIssues(parsed.error.issues).map((issue) => `tools/${file}[${index}]: ${issue}`),
        );
    });
  }
  const names = new Set<string>();
  for (const entry of entries) {
    if (names.has(entry.name))
      problems.push(`tool ${entry.name} is defined twice: give each tool its own name`);
    names.add(entry.name);
  }
  const requests: LabelledRequest[] = [];
  const requestsPath = join(dir, requestsFile);
  if (!(await exists(requestsPath)))
    throw new EvaluationError('CASES_NOT_FOUND', {
      message: `No labelled requests at ${relative(cwd, requestsPath)}: name a YAML file of ${relative(cwd, dir) || '.'}, e.g. requests or holdout.`,
    });
  const list = await readYaml(requestsPath, cwd, problems);
  list.forEach((value, index) => {
    const parsed = LabelledRequest.safeParse(value);
    if (!parsed.success) {
      problems.push(
        ...describeIssues(parsed.error.issues).map((issue) => `${requestsFile}[${index}]: ${issue}`),
      );
      return;
    }
    const unknown = expectedTools(parsed.data.expect).filter((tool) => !names.has(tool));
    if (unknown.length > 0)
      problems.push(
        `${requestsFile}[${index}] ("${parsed.data.text}") expects ${unknown.join(', ')}, which the catalogue lacks`,
      );
    requests.push(parsed.data);
  });
  if (problems.length > 0) {
    throw new EvaluationError('INVALID_CASES', {
      message: `The routing catalogue in ${relative(cwd, dir) || '.'} is not valid:\n${problems.join('\n')}`,
      problems,
    });
  }
  return { tools: entries.map(toTool), requests, requestsFile };
}
