import type { Command } from 'commander';
import { DEFAULT_CASES_DIR, evalCommand } from './commands/eval.ts';
import { routingEvalCommand } from './commands/eval-routing.ts';
import type { CliConfig } from './config.ts';
import { reportFailure } from './errors.ts';
import { EXIT, type Output } from './io/output.ts';
import { TEAM_HELP } from './system-commands.ts';
import { loadTeam } from './team/load-team.ts';

const EVAL_HELP = `
Cases are files <cases>/<suite>/<id>.yaml; suites: normal, boundary, malicious, failure.
Each case names who asks (user: <id>, one of the team's users.ids, or as: operator) and is sent
with that caller's token.
In process (the default) every case runs on a fresh system in this process: tool calls, steps,
tokens and dangerous actions are observed and faults are injected. With --url the cases run against
a deployment as its users and an operator (SWITCHBOARD_ADMIN_TOKEN); the users' tokens come
from SWITCHBOARD_EVAL_TOKENS (<user id>=<token>,…), else from .switchboard/dev.json. Cases
with faults are skipped and tool expectations are reported as not observable.
A real model (--model <name>) reads OPENAI_API_KEY and OPENAI_BASE_URL.

"switchboard eval routing" evaluates the tool router instead: the labelled requests of
<cases>/routing over its tool catalogue, with and without the router, the same model choosing in
both (--model as above); it reports recall@k, wrong-tool and clarification rates and prompt tokens
per step (--requests holdout runs the held-out requests instead of requests.yaml; --top-k,
--recall-threshold and --accept-threshold set the router; --embeddings local adds embedding
recall from the model that runs in the process (@switchboard/embeddings-local), --embeddings
<model> from OPENAI_BASE_URL's /embeddings; --recall lexical|embedding|hybrid says how the two
are used, default hybrid with --embeddings; --json, --out as above).

Exit codes: 0 done (no regression against --baseline), 1 regressions (or the deployment is
unreachable), 2 usage: a bad suite or flag, malformed case files, an unreadable baseline.

Examples:
  switchboard eval                                   every suite, offline model, terminal report
  switchboard eval malicious --model scripted        one suite, through the OpenAI HTTP client
  switchboard eval --baseline evals/baseline.json    the regression gate CI runs
  switchboard eval --out report.json --markdown report.md
  switchboard eval routing                           the tool router, with and without
  switchboard eval routing --requests holdout        on the requests kept out of tuning
  OPENAI_API_KEY=... switchboard eval routing --model gpt-4.1-mini`;

/** Adds `switchboard eval`. */
export function addEvalCommands({
  program,
  config,
  output,
  exit,
}: {
  program: Command;
  config: CliConfig;
  output: Output;
  exit: { code: number };
}): void {
  program
    .command('eval')
    .description(
      'Run the eval suites against the agents: metrics per suite and overall, each failed case, and a baseline gate.',
    )
    .argument('[suite]', 'normal, boundary, malicious or failure (default: every suite), or routing')
    .option('--cases <dir>', `the directory holding the suite folders (default: ${DEFAULT_CASES_DIR})`)
    .option(
      '--model <model>',
      'offline, scripted (offline behind the OpenAI HTTP client) or a model name',
      'offline',
    )
    .option(
      '--url [url]',
      'run against a deployment’s supervisor (no value: SWITCHBOARD_URL, then .switchboard/dev.json)',
    )
    .option('--baseline <file>', 'an earlier JSON report: exit 1 on any regression against it')
    .option('--threshold <n>', 'how much a rate may drop before it is a regression (absolute)', '0.05')
    .option('--relative-threshold <n>', 'how much steps and tokens per task may grow (relative)', '0.1')
    .option('--timeout <seconds>', 'a case that takes longer fails', '60')
    .option('--concurrency <n>', 'cases run at the same time', '1')
    .option('--json', 'print the report as JSON on stdout', false)
    .option('--out <file>', 'write the JSON report to a file (a baseline for --baseline)')
    .option('--markdown <file>', 'write the report as Markdown')
    .option('--top-k <n>', 'eval routing: most candidates the router offers (default 5)')
    .option(
      '--recall-threshold <n>',
      'eval routing: least relevance to keep a candidate (default 0.3, 0.35 with embeddings)',
    )
    .option(
      '--accept-threshold <n>',
      'eval routing: least relevance to trust the best (default 0.4, 0.45 with embeddings)',
    )
    .option(
      '--embeddings <model>',
      'eval routing: add embedding recall: local (in the process) or a model at OPENAI_BASE_URL',
    )
    .option(
      '--recall <mode>',
      'eval routing: lexical, embedding or hybrid (default hybrid with --embeddings)',
    )
    .option('--requests <file>', 'eval routing: the labelled requests, requests (default) or holdout')
    .option('--team <dir-or-module>', TEAM_HELP)
    .addHelpText('after', EVAL_HELP)
    .action(
      async (
        suite: string | undefined,
        options: {
          team?: string;
          cases?: string;
          model: string;
          url?: string | boolean;
          baseline?: string;
          threshold: string;
          relativeThreshold: string;
          timeout: string;
          concurrency: string;
          json: boolean;
          out?: string;
          markdown?: string;
          topK?: string;
          recallThreshold?: string;
          acceptThreshold?: string;
          embeddings?: string;
          recall?: string;
          requests?: string;
        },
      ) => {
        if (suite === 'routing') {
          let casesDir = options.cases;
          try {
            casesDir ??= (await loadTeam({ team: options.team })).team.evals?.cases;
          } catch (error) {
            exit.code = reportFailure({ error, output });
            return;
          }
          if (!casesDir) {
            output.err('The team names no eval cases: pass --cases <dir> (the folder that holds routing/).');
            exit.code = EXIT.usage;
            return;
          }
          exit.code = await routingEvalCommand({
            casesDir,
            ...options,
            env: config.env,
            output,
          });
          return;
        }
        exit.code = await evalCommand({ suite, ...options, env: config.env, output });
      },
    );
}
