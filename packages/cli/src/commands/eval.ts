import { writeFile } from 'node:fs/promises';
import {
  compareReports,
  deploymentTarget,
  type EvalReport,
  type EvalTarget,
  formatMarkdownReport,
  formatReportJson,
  formatTerminalReport,
  type GateResult,
  inProcessTarget,
  isEvaluationError,
  isSuite,
  type LoadedCase,
  loadCases,
  openModelSource,
  readReport,
  runEvals,
  SUITES,
  userOf,
  usersWithoutToken,
} from '@switchboard/eval';
import type { Team } from '@switchboard/team';
import { connectSupervisor } from '../a2a/supervisor-client.ts';
import { AdminClient } from '../admin/admin-client.ts';
import { resolveSettings } from '../config.ts';
import { CliError, reportFailure } from '../errors.ts';
import { EXIT, type Output } from '../io/output.ts';
import { redisAnswers } from '../system/local-redis.ts';
import { type LoadedTeam, loadTeam, startInProcess } from '../team/load-team.ts';
import { newTrace } from '../trace-context.ts';
import { EVAL_TOKENS_VARIABLE, evalTokens, missingTokensError } from './eval-tokens.ts';

/** Where the eval cases live by default, in words: the team's (`evals.cases` of its module). */
export const DEFAULT_CASES_DIR =
  "the team's eval cases (its evals.cases; the bundled example team's under examples/)";

/** Options of {@link evalCommand}, as typed on the command line. */
export interface EvalCommandOptions {
  /** `--team`: the team to evaluate (a module or its folder; default: the bundled example). */
  team?: string | undefined;
  /** The suite to run; every suite when absent. */
  suite?: string | undefined;
  /** `--cases`: the directory holding the suite folders (default: the team's `evals.cases`). */
  cases?: string | undefined;
  /** `--model`: `offline` (default), `scripted` or a model name. */
  model: string;
  /** `--url`: a deployment's supervisor (`true`: from SWITCHBOARD_URL or .switchboard/dev.json). */
  url?: string | boolean | undefined;
  baseline?: string | undefined;
  /** `--threshold`: how much a rate may drop (absolute), as typed. */
  threshold: string;
  /** `--relative-threshold`: how much steps and tokens may grow (relative), as typed. */
  relativeThreshold: string;
  /** `--timeout`: seconds per case, as typed. */
  timeout: string;
  /** `--concurrency`: cases at once, as typed. */
  concurrency: string;
  json: boolean;
  out?: string | undefined;
  markdown?: string | undefined;
  /** The environment (`OPENAI_API_KEY`, `OPENAI_BASE_URL`, `SWITCHBOARD_*`). */
  env: NodeJS.ProcessEnv;
  output: Output;
}

function parseNumber(
  flag: string,
  text: string,
  { min, max, integer = false }: { min: number; max?: number; integer?: boolean },
): number | string {
  const value = Number(text);
  const ok =
    Number.isFinite(value) &&
    value >= min &&
    (max === undefined || value <= max) &&
    (!integer || Number.isInteger(value));
  if (ok) return value;
  const range =
    max === undefined
      ? `${integer ? 'a whole number' : 'a number'} of at least ${min}`
      : `a number from ${min} to ${max}`;
  return `${flag} ${text} must be ${range}`;
}

async function openTarget(
  options: EvalCommandOptions,
  { team, module }: LoadedTeam,
  cases: readonly LoadedCase[],
): Promise<EvalTarget> {
  // The eval runner knows no domain: the team, and its users' data, are what it evaluates here.
  const users = team.evals?.users?.() ?? [];
  if (options.url !== undefined && options.url !== false) {
    const settings = await resolveSettings({
      need: ['url', 'adminToken'],
      flags: { url: { value: typeof options.url === 'string' ? options.url : undefined, flag: '--url' } },
      env: options.env,
    });
    // Each case is sent as its user: every user the cases name needs a token.
    const { tokens, from } = await evalTokens({ env: options.env });
    const missing = usersWithoutToken({ cases: cases.map((loaded) => loaded.case), tokens });
    if (missing.length > 0) throw missingTokensError({ missing, from });
    const trace = newTrace();
    const asked = [...new Set(cases.flatMap(({ case: evalCase }) => userOf(evalCase) ?? []))].sort();
    for (const id of asked) {
      // Fails early, with the variable to set, when the supervisor is down or refuses a token.
      const client = await connectSupervisor({
        url: settings.url,
        token: { value: tokens[id] ?? '', from: `${from} (user ${id})`, fix: EVAL_TOKENS_VARIABLE },
        traceparent: trace.traceparent,
      });
      // A task that does not exist: a valid token gets "not found", a refused one a CliError naming its variable.
      await client
        .getTask({ tenant: '', id: 'switchboard-eval-token-check', historyLength: 0 })
        .catch((error: unknown) => {
          if (error instanceof CliError) throw error;
        });
    }
    await new AdminClient({
      url: settings.url,
      token: settings.adminToken,
      traceparent: trace.traceparent,
    }).list();
    return deploymentTarget({
      url: settings.url.value,
      tokens,
      adminToken: settings.adminToken.value,
      users,
    });
  }
  const models = await openModelSource({
    model: options.model,
    apiKey: options.env.OPENAI_API_KEY?.trim() || undefined,
    baseURL: options.env.OPENAI_BASE_URL?.trim() || undefined,
  });
  // The production path when Redis answers (the queue binding, Redis stores, a namespace per case);
  // in memory over loopback HTTP only without it.
  const redisUrl = options.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379';
  const onRedis = options.env.REDIS_CLUSTER_NODES === undefined && (await redisAnswers(redisUrl));
  return inProcessTarget({
    startSystem: onRedis
      ? (start) => startInProcess(team, module, { ...start, redis: { url: redisUrl } })
      : (start) => startInProcess(team, module, start),
    models,
    users,
  });
}

/**
 * The users a case may name, and how to add one: in process the team's declared users
 * (`users.ids`); against a deployment (`--url`) the users whose tokens were given, when any were.
 */
async function knownUsers(
  options: EvalCommandOptions,
  team: Team,
): Promise<{ users: readonly string[] | undefined; addUser: string }> {
  if (options.url !== undefined && options.url !== false) {
    const { tokens, from } = await evalTokens({ env: options.env });
    const ids = Object.keys(tokens).sort();
    return {
      // Without any token the missing-token error says what to set, naming the cases' users.
      users: ids.length > 0 ? ids : undefined,
      addUser: `give its token in ${EVAL_TOKENS_VARIABLE} (<user id>=<token>, comma-separated)${from ? `; the tokens now come from ${from}` : ''}`,
    };
  }
  return { users: [...team.users.ids], addUser: `declare it in the team's users.ids (the ${team.title})` };
}

/**
 * `switchboard eval [suite]`: runs the eval cases (in process on a fresh system per case, or against
 * a deployment with `--url`), prints the report (terminal table, or JSON with `--json`), writes it
 * (`--out`, `--markdown`), and with `--baseline` gates on regressions. Exit 0 done (no regression),
 * 1 regressions (or the deployment is unreachable), 2 usage: a bad suite, flag, case file or baseline.
 */
export async function evalCommand(options: EvalCommandOptions): Promise<number> {
  const { output } = options;
  if (options.suite !== undefined && !isSuite(options.suite)) {
    output.err(`Unknown suite "${options.suite}": give ${SUITES.join(', ')}, or no suite to run them all.`);
    return EXIT.usage;
  }
  const threshold = parseNumber('--threshold', options.threshold, { min: 0, max: 1 });
  const relativeThreshold = parseNumber('--relative-threshold', options.relativeThreshold, { min: 0 });
  const timeout = parseNumber('--timeout', options.timeout, { min: 1 });
  const concurrency = parseNumber('--concurrency', options.concurrency, { min: 1, integer: true });
  for (const value of [threshold, relativeThreshold, timeout, concurrency]) {
    if (typeof value === 'string') {
      output.err(`${value}, e.g. --threshold 0.05 --relative-threshold 0.1 --timeout 60 --concurrency 2`);
      return EXIT.usage;
    }
  }
  let report: EvalReport;
  let gate: GateResult | undefined;
  try {
    const loaded = await loadTeam({ team: options.team });
    const { team } = loaded;
    const dir = options.cases ?? team.evals?.cases;
    if (!dir) {
      output.err(
        `The ${team.title} names no eval cases: pass --cases <dir> (the folder of the suite folders).`,
      );
      return EXIT.usage;
    }
    const baseline = options.baseline ? await readReport({ file: options.baseline }) : undefined;
    const cases = await loadCases({
      dir,
      suite: options.suite && isSuite(options.suite) ? options.suite : undefined,
      ...(await knownUsers(options, team)),
    });
    const target = await openTarget(options, loaded, cases);
    output.err(
      `Running ${cases.length} eval case${cases.length === 1 ? '' : 's'} on ${target.model} (${target.label})…`,
    );
    report = await runEvals({
      cases,
      target,
      caseTimeoutMs: (timeout as number) * 1000,
      concurrency: concurrency as number,
      onCase: (result) => {
        const mark = result.status === 'passed' ? '✓' : result.status === 'failed' ? '✗' : '-';
        const why =
          result.status === 'skipped'
            ? ` skipped: ${result.skipReason}`
            : ` (${(result.durationMs / 1000).toFixed(1)} s)`;
        output.err(`  ${mark} ${result.suite}/${result.id}${why}`);
      },
    });
    if (baseline) {
      gate = compareReports({
        baseline,
        current: report,
        threshold: threshold as number,
        relativeThreshold: relativeThreshold as number,
      });
    }
  } catch (error) {
    if (isEvaluationError(error)) {
      output.err(error.message);
      return EXIT.usage;
    }
    return reportFailure({ error, output });
  }
  const json = formatReportJson(report);
  try {
    if (options.out) await writeFile(options.out, json);
    if (options.markdown) {
      await writeFile(
        options.markdown,
        formatMarkdownReport({ report, gate, baselineFile: options.baseline }),
      );
    }
  } catch (error) {
    return reportFailure({
      error: new CliError('INVALID_SETTING', {
        message: `Cannot write the report: ${error instanceof Error ? error.message : String(error)}. Check the --out and --markdown paths.`,
      }),
      output,
    });
  }
  if (options.json) {
    output.out(json.trimEnd());
    if (gate) for (const regression of gate.regressions) output.err(`regression: ${regression.message}`);
  } else {
    output.out(formatTerminalReport({ report, gate, baselineFile: options.baseline }).trimEnd());
  }
  if (options.out) output.err(`Wrote the JSON report to ${options.out}.`);
  if (options.markdown) output.err(`Wrote the Markdown report to ${options.markdown}.`);
  return gate && gate.regressions.length > 0 ? EXIT.problems : EXIT.ok;
}
