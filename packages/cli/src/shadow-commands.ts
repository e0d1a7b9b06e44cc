import { OpenAIChatModel } from '@switchboard/openai';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { shadowReportCommand } from './commands/shadow-report.ts';
import type { CliConfig } from './config.ts';
import { readDevFile } from './dev-file.ts';
import { EXIT, type Output } from './io/output.ts';
import { redisTarget } from './system/redis-target.ts';

const DEFAULT_AGENTS = ['supervisor', 'orders', 'inventory', 'comms'];

/** `--since`: a duration back from now (`30m`, `24h`, `7d`) or a date (`2026-12-01T09:00Z`). */
export function parseSince(value: string, now = Date.now()): Date {
  const duration = /^(\d+)\s*(m|h|d)$/.exec(value.trim());
  if (duration) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[duration[2] as 'm' | 'h' | 'd'];
    return new Date(now - Number(duration[1]) * unit);
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    throw new InvalidArgumentError(
      'give a duration back from now (30m, 24h, 7d) or a date (2026-12-01T09:00Z)',
    );
  }
  return date;
}

function wholeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('give a whole number');
  return n;
}

/** Adds `switchboard shadow report`. */
export function addShadowCommands({
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
    .command('shadow')
    .description('What agents’ shadows would have done, compared with what really happened.')
    .command('report')
    .description(
      'Agreement of each shadow with the live runs (or operators): same tools, same write arguments, same answer, violations; and the disagreements worth a look, with both traces’ ids.',
    )
    .option('--since <when>', 'only requests since then: 30m, 24h, 7d or a date', (value) =>
      parseSince(value),
    )
    .option('--agent <names>', `comma-separated agents (default: ${DEFAULT_AGENTS.join(',')})`)
    .addOption(new Option('--json', 'print the reports as JSON').conflicts('markdown'))
    .option('--markdown', 'print the reports as Markdown')
    .option('--limit <n>', 'disagreements listed at most (default 20)', wholeNumber)
    .option(
      '--judge <model>',
      'judge answers that differ in text with this model (OPENAI_API_KEY, OPENAI_BASE_URL); verdicts are kept in the pairs',
    )
    .option('--judge-max <n>', 'pairs judged at most in this run (default 200)', wholeNumber)
    .option(
      '--redis-url <url>',
      'default: REDIS_URL, then .switchboard/dev.json, then redis://127.0.0.1:6379',
    )
    .option(
      '--namespace <name>',
      'default: SWITCHBOARD_NAMESPACE, then .switchboard/dev.json, then switchboard',
    )
    .action(
      async (options: {
        since?: Date;
        agent?: string;
        json?: boolean;
        markdown?: boolean;
        limit?: number;
        judge?: string;
        judgeMax?: number;
        redisUrl?: string;
        namespace?: string;
      }) => {
        const dev = await readDevFile({});
        const redis = redisTarget({ flag: options.redisUrl, env: config.env, devUrl: dev?.redisUrl });
        if (!redis.ok) {
          for (const { variable, message } of redis.problems) output.err(`${variable}: ${message}`);
          exit.code = EXIT.usage;
          return;
        }
        let judge: { model: OpenAIChatModel; max: number } | undefined;
        if (options.judge) {
          const apiKey = config.env.OPENAI_API_KEY?.trim();
          if (!apiKey) {
            output.err(
              '--judge needs OPENAI_API_KEY (any text for a local server that checks none), and OPENAI_BASE_URL for an endpoint other than OpenAI, e.g. OPENAI_BASE_URL=http://127.0.0.1:11434/v1',
            );
            exit.code = EXIT.usage;
            return;
          }
          const baseURL = config.env.OPENAI_BASE_URL?.trim();
          judge = {
            model: new OpenAIChatModel({ model: options.judge, apiKey, ...(baseURL ? { baseURL } : {}) }),
            max: options.judgeMax ?? 200,
          };
        }
        exit.code = await shadowReportCommand({
          redis: redis.options,
          judge,
          namespace: options.namespace ?? config.namespace ?? dev?.prefix ?? 'switchboard',
          agents: options.agent
            ? options.agent
                .split(',')
                .map((name) => name.trim())
                .filter(Boolean)
            : DEFAULT_AGENTS,
          since: options.since,
          format: options.json ? 'json' : options.markdown ? 'markdown' : 'text',
          limit: options.limit ?? 20,
          output,
        });
      },
    );
}
