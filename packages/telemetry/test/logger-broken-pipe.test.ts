import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('./support/logging-child.ts', import.meta.url));

/** Resolves with how the process ended, or 'still running' after `ms`. */
function endedWithin(process: ChildProcess, ms: number): Promise<string> {
  return Promise.race([
    once(process, 'exit').then(([code, signal]) => `exited (${signal ?? code})`),
    new Promise<string>((resolve) => setTimeout(() => resolve('still running'), ms)),
  ]);
}

describe('the default log destination, when whoever reads stdout is gone', () => {
  // sonic-boom 4.2.1 (pino 10's stdout) retried every failed write in flushSync every 100 ms,
  // forever, EPIPE included: a process exiting with lines still buffered for a closed pipe hung in
  // pino's exit flush and never exited. patches/sonic-boom@4.2.1.patch makes flushSync give up on an
  // error it cannot wait out, as sonic-boom 5 does.
  it('does not keep a process from exiting', async () => {
    for (let round = 0; round < 3; round += 1) {
      const logging = spawn(process.execPath, [child], { stdio: ['ignore', 'pipe', 'ignore', 'ipc'] });
      try {
        await once(logging, 'message');
        // What a parent killed outright does: its end of the pipe closes, and so does the channel.
        logging.stdout?.destroy();
        logging.disconnect();
        expect(await endedWithin(logging, 10_000), `round ${round + 1}`).toMatch(/^exited/);
      } finally {
        logging.kill('SIGKILL');
      }
    }
  }, 60_000);
});
