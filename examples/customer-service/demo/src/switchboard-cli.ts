import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '@switchboard/cli';

/** The `switchboard` command of this repository, run with `node` as a user runs it. */
export const CLI_BIN = join(REPO_ROOT, 'packages/cli/bin/switchboard.mjs');

/** How one `switchboard` command ended: its exit code (or the signal that ended it) and all it printed. */
export interface CliResult {
  code: number | string;
  /** stdout and stderr, interleaved as they came. */
  output: string;
  timedOut: boolean;
}

/** Options of {@link runSwitchboard}. */
export interface RunSwitchboardOptions {
  args: readonly string[];
  /** The command's whole environment (the supervisor's URL and tokens in `SWITCHBOARD_*`). */
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Where its output goes as it comes (the terminal); left out, it is only captured. */
  write?: (text: string) => void;
  /** Ends the command (SIGINT) when aborted, e.g. on Ctrl-C. */
  signal?: AbortSignal;
  /** Longest the command may run before it is ended (default 120 000 ms). */
  timeoutMs?: number;
}

/** `switchboard ask "Where is…"`: the command line as a user would type it. */
export function commandLine(args: readonly string[]): string {
  const quote = (arg: string) => (/^[\w./:=@-]+$/.test(arg) ? arg : `"${arg.replace(/(["\\$`])/g, '\\$1')}"`);
  return ['switchboard', ...args.map(quote)].join(' ');
}

/**
 * Runs the real `switchboard` CLI (`node packages/cli/bin/switchboard.mjs …`) as a child process,
 * passing its output through as it comes and capturing it. Never throws for the command's own
 * failures: the caller judges the exit code.
 */
export function runSwitchboard({
  args,
  env,
  cwd = process.cwd(),
  write,
  signal,
  timeoutMs = 120_000,
}: RunSwitchboardOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let timedOut = false;
    const take = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      write?.(text);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const stop = () => child.kill('SIGINT');
    signal?.addEventListener('abort', stop, { once: true });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      reject(new Error(`Cannot run ${commandLine(args)}: ${error.message}`, { cause: error }));
    });
    child.once('close', (code, killedBy) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      resolve({ code: code ?? killedBy ?? 'unknown', output, timedOut });
    });
  });
}
