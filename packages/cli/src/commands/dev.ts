import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@switchboard/agent';
import { DEV_FILE, writeDevFile } from '../dev-file.ts';
import { EXIT, type Output } from '../io/output.ts';
import { bootSystem } from '../system/boot-system.ts';
import { formatLogLine } from '../system/log-line.ts';

/** Options of {@link devCommand}. */
export interface DevCommandOptions {
  redisUrl: string;
  namespace: string;
  port: number;
  inProcess: boolean;
  /** The environment the services start from (they read their own settings from it). */
  env: NodeJS.ProcessEnv;
  output: Output;
  /** Resolves when the command should stop (default: SIGINT or SIGTERM). */
  until?: Promise<void>;
}

function consoleLogger(output: Output): Logger {
  const write =
    (level: string) =>
    (fields: Record<string, unknown> | string, message?: string): void => {
      const text = typeof fields === 'string' ? fields : (message ?? '');
      output.err(`[system    ] ${level.padEnd(5)} ${text}`);
    };
  return { debug: () => {}, info: write('info'), warn: write('warn'), error: write('error') } as Logger;
}

const signalled = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });

/**
 * `switchboard dev`: boots the whole system (a process per service on Redis; a local redis-server
 * when none answers and one is installed; else everything in this process), seeds the shop, writes
 * `.switchboard/dev.json` for the other commands, prints every service's log prefixed with its
 * name, and stops it all on Ctrl-C.
 */
export async function devCommand({
  redisUrl,
  namespace,
  port,
  inProcess,
  env,
  output,
  until = signalled(),
}: DevCommandOptions): Promise<number> {
  output.out('Starting the Switchboard customer-service system…');
  const system = await bootSystem({
    redisUrl,
    namespace,
    port,
    inProcess,
    baseEnv: env,
    logger: consoleLogger(output),
    onLog: (line) => output.out(formatLogLine(line)),
  });
  const { access } = system;
  await writeDevFile({
    settings: {
      supervisorUrl: access.supervisorUrl,
      token: access.token,
      adminToken: access.adminToken,
      redisUrl: access.redisUrl,
      prefix: access.namespace,
    },
  });
  output.out('');
  output.out(`Switchboard is running ${system.note}.`);
  output.out(
    `  supervisor  ${access.supervisorUrl}  (card: ${access.supervisorUrl}/.well-known/agent-card.json)`,
  );
  output.out(`  settings    ${DEV_FILE} (the switchboard command reads its URL and tokens from there)`);
  output.out('Try:');
  output.out('  switchboard ask "Where is my order A10086 and when will it arrive?"');
  output.out('  switchboard ask "Please refund order A10086, the kettle arrived broken."');
  output.out('  switchboard approvals list');
  output.out('  switchboard trace last');
  output.out('Press Ctrl-C to stop.');
  await until;
  output.out('Stopping…');
  await system.stop();
  await rm(join(process.cwd(), DEV_FILE), { force: true });
  output.out('Stopped.');
  return EXIT.ok;
}
