import { readFileSync } from 'node:fs';
import { type Command, InvalidArgumentError } from 'commander';
import { devCommand } from './commands/dev.ts';
import { keysGenerateCommand } from './commands/keys-generate.ts';
import { newAgentCommand } from './commands/new-agent.ts';
import { newTeamCommand } from './commands/new-team.ts';
import { seedCommand } from './commands/seed.ts';
import type { CliConfig } from './config.ts';
import { readDevFile } from './dev-file.ts';
import { EXIT, type Output } from './io/output.ts';
import { redisTarget } from './system/redis-target.ts';
import { loadTeam, serveService } from './team/load-team.ts';

/** This CLI's version: the `@switchboard/*` version a new team depends on. */
const VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const DEFAULT_REDIS = 'redis://127.0.0.1:6379';

/** What `--team` takes, for every command that runs a team. */
export const TEAM_HELP =
  'the team to run: its team module (default export defineTeam({...})) or the folder holding it as team.ts or src/team.ts (default: the team.ts of the current folder, else the bundled example team, under examples/)';

function port(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 65_532)
    throw new InvalidArgumentError('give a port from 1 to 65532 (every service’s port moves by as much)');
  return parsed;
}

/** Adds the commands that make and run a team on this machine: `new`, `dev`, `seed` and `keys generate`. */
export function addSystemCommands({
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
  const make = program.command('new').description('Make a team of your own, or a worker in it.');
  make
    .command('team')
    .description(
      'Write a runnable team into a new folder: a supervisor, a worker with a read and a dangerous tool, a test of the team in one process, an eval case and a README.',
    )
    .argument('<dir>', 'the new folder (it must not exist, or be empty)')
    .option(
      '--packages <dir>',
      'depend on the @switchboard/* tarballs in this folder (made with "pnpm pack:all <dir>" in a checkout) instead of the registry',
    )
    .action(async (dir: string, options: { packages?: string }) => {
      exit.code = await newTeamCommand({ dir, packages: options.packages, version: VERSION, output });
    });
  make
    .command('agent')
    .description('Add a worker to the team here: agents/<name>.ts, with one read tool, listed in team.ts.')
    .argument('<name>', 'the worker’s name, e.g. weather')
    .option('--team <dir-or-module>', 'the team’s folder or module (default: ./team.ts)')
    .action(async (name: string, options: { team?: string }) => {
      exit.code = await newAgentCommand({ name, team: options.team, output });
    });
  program
    .command('serve')
    .description(
      'Serve one service of a team in this process, with its settings from the environment (REDIS_URL, SWITCHBOARD_SERVICE_KEY, SWITCHBOARD_TRUSTED_KEYS, …): what a deployment runs, one process per service, and what dev runs for each.',
    )
    .argument('<service>', 'a worker’s name, or the supervisor’s')
    .option('--team <dir-or-module>', TEAM_HELP)
    .action(async (service: string, options: { team?: string }) => {
      await serveService(await loadTeam({ team: options.team }), service, config.env);
    });
  program
    .command('dev')
    .description(
      'Run the whole system here: supervisor and workers as child processes on Redis (a local redis-server when none answers, or all in one process without Redis), logs prefixed by service. Ctrl-C stops it.',
    )
    .option('--redis-url <url>', 'the Redis to use (default: REDIS_URL, then redis://127.0.0.1:6379)')
    .option(
      '--namespace <name>',
      'the Redis key namespace (default: SWITCHBOARD_NAMESPACE, then switchboard)',
    )
    .option(
      '--port <port>',
      'the supervisor’s port (default: the team’s, 4100); every service’s port moves by as much',
      port,
    )
    .option('--in-process', 'run every agent in this process, without Redis', false)
    .option('--team <dir-or-module>', TEAM_HELP)
    .action(
      async (options: {
        team?: string;
        redisUrl?: string;
        namespace?: string;
        port?: number;
        inProcess: boolean;
      }) => {
        exit.code = await devCommand({
          team: options.team,
          redisUrl: options.redisUrl ?? config.redisUrl ?? DEFAULT_REDIS,
          namespace: options.namespace ?? config.namespace ?? 'switchboard',
          env: config.env,
          port: options.port,
          inProcess: options.inProcess,
          output,
        });
      },
    );
  program
    .command('seed')
    .description(
      'Load the team’s data into Redis (the bundled example: its users, products and orders); running it again adds nothing.',
    )
    .option(
      '--redis-url <url>',
      'default: REDIS_URL, then .switchboard/dev.json, then redis://127.0.0.1:6379',
    )
    .option(
      '--namespace <name>',
      'default: SWITCHBOARD_NAMESPACE, then .switchboard/dev.json, then switchboard',
    )
    .option('--file <fixture.json>', 'load this data file instead of the team’s bundled data')
    .option('--reset', 'remove the team’s data first (the bundled example: refunds and outbox too)', false)
    .option('--json', 'print the counts as JSON', false)
    .option('--team <dir-or-module>', TEAM_HELP)
    .action(
      async (options: {
        team?: string;
        redisUrl?: string;
        namespace?: string;
        file?: string;
        reset: boolean;
        json: boolean;
      }) => {
        const dev = await readDevFile({});
        // Redis as the services read it (a cluster's REDIS_CLUSTER_NODES, the login and TLS).
        const redis = redisTarget({ flag: options.redisUrl, env: config.env, devUrl: dev?.redisUrl });
        if (!redis.ok) {
          for (const { variable, message } of redis.problems) output.err(`${variable}: ${message}`);
          exit.code = EXIT.usage;
          return;
        }
        exit.code = await seedCommand({
          team: options.team,
          redis: redis.options,
          namespace: options.namespace ?? config.namespace ?? dev?.prefix ?? 'switchboard',
          file: options.file,
          reset: options.reset,
          json: options.json,
          output,
        });
      },
    );
  program
    .command('keys')
    .description('Manage the signing keys services prove themselves to each other with.')
    .command('generate')
    .description(
      'Make a new Ed25519 signing key for a service: prints its private JWK (SWITCHBOARD_SERVICE_KEY, a secret) and its public JWK (to add to SWITCHBOARD_TRUSTED_KEYS).',
    )
    .requiredOption('--service <name>', 'the service the key is for, e.g. orders')
    .option('--label <label>', 'tells this key from the service’s others (default: today’s date)')
    .option('--json', 'print {"privateKey":…,"publicKey":…} as one JSON line', false)
    .action((options: { service: string; label?: string; json: boolean }) => {
      exit.code = keysGenerateCommand({ ...options, label: options.label, output });
    });
}
