import { Command, CommanderError, Option } from 'commander';
import { cardsCheck } from './commands/cards-check.ts';
import { cardsConvert } from './commands/cards-convert.ts';
import { cardsDiff } from './commands/cards-diff.ts';
import { cardsVerify } from './commands/cards-verify.ts';
import { traceCommand } from './commands/trace.ts';
import { type CliConfig, loadCliConfig } from './config.ts';
import { reportFailure } from './errors.ts';
import { addEvalCommands } from './eval-commands.ts';
import { EXIT, type Output, processOutput } from './io/output.ts';
import { addShadowCommands } from './shadow-commands.ts';
import { addSupervisorCommands } from './supervisor-commands.ts';
import { addSystemCommands } from './system-commands.ts';

/** Builds the `switchboard` command on its settings; each action stores its exit code in `exit`. */
export function buildProgram(output: Output, exit: { code: number }, config: CliConfig): Command {
  const program = new Command('switchboard')
    .description('Run and inspect teams of A2A agents.')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => output.out(text.trimEnd()),
      writeErr: (text) => output.err(text.trimEnd()),
    })
    .showHelpAfterError('(run "switchboard --help" for usage)');
  const cards = program
    .command('cards')
    .description('Check, convert, diff and verify A2A agent cards (v1.0 and v0.3).');
  cards
    .command('check')
    .description('Validate cards against their version’s schema and semantic rules.')
    .argument('<file|url|dir>', 'a card file, a directory of cards, or an agent’s URL')
    .option('--json', 'print the result as JSON (for CI)', false)
    .addOption(
      new Option('--version <version>', 'check as this version instead of detecting it').choices([
        '1.0',
        '0.3',
      ]),
    )
    .option(
      '--a2a-version <version>',
      'fetch a URL with this A2A-Version header only (default: with none, 1.0 and 0.3, saying which card shape each gets)',
    )
    .option(
      '--follow-redirects',
      'follow a URL’s redirects, saying where they lead (default: a redirect is reported, not followed)',
      false,
    )
    .action(
      async (
        target: string,
        options: { json: boolean; version?: '1.0' | '0.3'; a2aVersion?: string; followRedirects: boolean },
      ) => {
        exit.code = await cardsCheck({
          target,
          json: options.json,
          version: options.version,
          a2aVersion: options.a2aVersion,
          followRedirects: options.followRedirects,
          output,
        });
      },
    );
  cards
    .command('convert')
    .description('Convert a card between v1.0 and v0.3; lossy steps are reported as warnings.')
    .argument('<file|url>', 'the card to convert')
    .addOption(
      new Option('--to <version>', 'the version to convert to').choices(['0.3', '1.0']).makeOptionMandatory(),
    )
    .option('-o, --out <file>', 'write the card to a file instead of printing it')
    .action(async (target: string, options: { to: '0.3' | '1.0'; out?: string }) => {
      exit.code = await cardsConvert({ target, to: options.to, out: options.out, output });
    });
  cards
    .command('diff')
    .description(
      'What changed between two cards (any versions), marked breaking or not for existing clients.',
    )
    .argument('<before>', 'the old card (file or URL)')
    .argument('<after>', 'the new card (file or URL)')
    .option('--json', 'print the diff as JSON', false)
    .option('--fail-on-breaking', 'exit 1 when a change breaks existing clients', false)
    .action(async (before: string, after: string, options: { json: boolean; failOnBreaking: boolean }) => {
      exit.code = await cardsDiff({ before, after, ...options, output });
    });
  cards
    .command('verify')
    .description(
      'Prove a live card with real calls (interfaces answer, streaming streams, auth is enforced) and check its signature.',
    )
    .argument('<url|file>', 'the agent’s base URL or card URL, or a card file (signature check only)')
    .option('--token <token>', 'a bearer token, to check that a valid caller is accepted')
    .option(
      '--trusted-keys <jwks>',
      'a JWKS file or URL of the keys you trust to sign cards: the card must be signed by one (A2A §8.4)',
    )
    .option('--no-send', 'do not send a message (skips the streaming check)')
    .option('--json', 'print the result as JSON', false)
    .action(
      async (
        url: string,
        options: { token?: string; trustedKeys?: string; send: boolean; json: boolean },
      ) => {
        exit.code = await cardsVerify({
          url,
          token: options.token,
          send: options.send,
          json: options.json,
          trustedKeys: options.trustedKeys,
          jaegerUrl: config.jaegerUrl,
          output,
        });
      },
    );
  program
    .command('trace')
    .description('Draw a trace as a tree: service, span, duration, status and key attributes.')
    .argument('<traceId|last>', 'a trace id, or "last" for the newest trace in the span file')
    .option('--file <path>', 'the local span file (SWITCHBOARD_SPAN_FILE)', config.spanFile)
    .option(
      '--jaeger <url>',
      'read the trace from Jaeger’s query API instead (SWITCHBOARD_JAEGER_URL)',
      config.jaegerUrl,
    )
    .action(async (which: string, options: { file: string; jaeger?: string }) => {
      exit.code = await traceCommand({ which, file: options.file, jaeger: options.jaeger, output });
    });
  addSupervisorCommands({ program, config, output, exit });
  addSystemCommands({ program, config, output, exit });
  addEvalCommands({ program, config, output, exit });
  addShadowCommands({ program, config, output, exit });
  return program;
}

/**
 * Runs the command line with the settings of `env` (the bin passes the process's environment);
 * resolves with the exit code. Never throws. With `OTEL_EXPORTER_OTLP_ENDPOINT` set, the command is
 * traced: its root span (`switchboard ask`, ...) and a CLIENT span per A2A call are exported, and
 * flushed before this resolves.
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2), { env: process.env });
 */
export async function main(
  argv: readonly string[],
  { env, output = processOutput }: { env: NodeJS.ProcessEnv; output?: Output },
): Promise<number> {
  const config = loadCliConfig(env);
  const { otlpEndpoint, environment } = config;
  if (!otlpEndpoint) return run({ argv, output, config });
  try {
    // Loaded only when asked for, so that an untraced command starts no SDK.
    const { startCommandTracing } = await import('./observe/command-span.ts');
    const tracing = await startCommandTracing({
      otlpEndpoint,
      environment,
      warn: (line) => output.err(line),
    });
    return await tracing.run((nameCommand) => run({ argv, output, config, nameCommand }));
  } catch (error) {
    return reportFailure({ error, output });
  }
}

async function run({
  argv,
  output,
  config,
  nameCommand,
}: {
  argv: readonly string[];
  output: Output;
  config: CliConfig;
  /** Told the command's path (`tasks get`) before its action runs. */
  nameCommand?: (command: string) => void;
}): Promise<number> {
  const exit = { code: EXIT.ok as number };
  const program = buildProgram(output, exit, config);
  if (nameCommand) program.hook('preAction', (_program, action) => nameCommand(commandPath(action)));
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exit.code;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    // A CliError (no team to run, say) says what to do, and its code says how to exit.
    return reportFailure({ error, output });
  }
}

/** A subcommand's path below the program: `ask`, `tasks get`. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current?.parent; current = current.parent) {
    names.unshift(current.name());
  }
  return names.join(' ');
}
