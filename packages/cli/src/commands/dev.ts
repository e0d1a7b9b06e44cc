import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@switchboard/agent';
import { inert } from '@switchboard/protocol';
import { routeConsole } from '@switchboard/telemetry';
import { DEV_FILE, devSettings, writeDevFile } from '../dev-file.ts';
import { EXIT, type Output } from '../io/output.ts';
import { bootSystem } from '../system/boot-system.ts';
import { formatLogLine } from '../system/log-line.ts';
import { describeSystemEvent } from '../system/system-event.ts';
import { loadTeam } from '../team/load-team.ts';

/** Options of {@link devCommand}. */
export interface DevCommandOptions {
  /** `--team`: the team to run (a module or its folder; default: the bundled example). */
  team?: string | undefined;
  redisUrl: string;
  namespace: string;
  port?: number | undefined;
  inProcess: boolean;
  /** The environment the services start from (they read their own settings from it). */
  env: NodeJS.ProcessEnv;
  output: Output;
  /**
   * Resolves when the command should stop (default: SIGINT, SIGTERM, or the IPC channel to the
   * process that started this one closing).
   */
  until?: Promise<void>;
}

const SYSTEM_PREFIX = '[system    ]';

function consoleLogger(output: Output): Logger {
  const write =
    (level: string) =>
    (fields: Record<string, unknown> | string, message?: string): void => {
      const text = typeof fields === 'string' ? fields : (message ?? '');
      output.err(`${SYSTEM_PREFIX} ${level.padEnd(5)} ${inert(text)}`);
    };
  return { debug: () => {}, info: write('info'), warn: write('warn'), error: write('error') } as Logger;
}

const stopRequested = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
    if (process.channel) {
      // Started with an IPC channel (by a test, say): when that process goes, even by SIGKILL, the
      // channel closes and the system stops with it. The channel alone must not keep this one alive.
      process.once('disconnect', () => resolve());
      process.channel.unref();
    }
  });

/**
 * `switchboard dev`: boots the whole system (a process per service on Redis; a local redis-server
 * when none answers and one is installed; else everything in this process), seeds the team's data, writes
 * `.switchboard/dev.json` for the other commands, prints every service's log prefixed with its
 * name, and stops it all on Ctrl-C. A service that crashes is reported and restarted; one that
 * keeps crashing stops the system, and the command exits 1.
 */
export async function devCommand({
  team: teamPath,
  until = stopRequested(),
  ...options
}: DevCommandOptions): Promise<number> {
  // This command owns its process: what a library prints with console (the A2A SDK, for agents run
  // in this process, quoting what callers sent) is one inert line of the log view, not raw text.
  const restoreConsole = routeConsole({ logger: consoleLogger(options.output) });
  try {
    return await runDev({ ...options, teamPath, until });
  } finally {
    restoreConsole();
  }
}

async function runDev({
  teamPath,
  redisUrl,
  namespace,
  port,
  inProcess,
  env,
  output,
  until,
}: Omit<DevCommandOptions, 'team' | 'until'> & {
  teamPath: string | undefined;
  until: Promise<void>;
}): Promise<number> {
  const { team, module } = await loadTeam({ team: teamPath });
  output.out(`Starting the Switchboard ${team.title}…`);
  const system = await bootSystem({
    team,
    teamModule: module,
    redisUrl,
    namespace,
    port,
    inProcess,
    baseEnv: env,
    logger: consoleLogger(output),
    onLog: (line) => output.out(formatLogLine(line)),
    onEvent: (event) => {
      for (const line of describeSystemEvent(event)) output.err(`${SYSTEM_PREFIX} ${line}`);
    },
  });
  const { access } = system;
  await writeDevFile({ settings: devSettings(access) });
  output.out('');
  output.out(`Switchboard is running ${system.note}.`);
  output.out(
    `  supervisor  ${access.supervisorUrl}  (card: ${access.supervisorUrl}/.well-known/agent-card.json)`,
  );
  output.out(
    `  console     ${access.supervisorUrl}/console  (sign in with the operator token in ${DEV_FILE})`,
  );
  output.out(`  settings    ${DEV_FILE} (the switchboard command reads its URL and tokens from there)`);
  const tryCommands = team.tryCommands?.(access) ?? ['switchboard approvals list', 'switchboard trace last'];
  output.out('Try:');
  for (const command of tryCommands) output.out(`  ${command}`);
  output.out('Press Ctrl-C to stop.');
  const failure = await Promise.race([until.then(() => undefined), system.failed]);
  output.out('Stopping…');
  await system.stop();
  await rm(join(process.cwd(), DEV_FILE), { force: true });
  if (failure) {
    output.err(
      `Stopped, because ${failure.service} kept crashing: fix what its last log lines above show, then run "switchboard dev" again.`,
    );
    return EXIT.problems;
  }
  output.out('Stopped.');
  return EXIT.ok;
}
