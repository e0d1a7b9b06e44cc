import { createHash } from 'node:crypto';
import type { RedisConnection } from '@switchboard/a2a-bullmq';

/** One command of a save: its name, then its arguments. */
export type SaveCommand = readonly [name: string, ...args: (string | number)[]];

// Runs the commands (each as its count, name and arguments in ARGV) unless ARGV[1] asks for the
// guard and the task was canceled (KEYS[1], the canceled marker, exists). Atomic, as MULTI was, and
// with the guard in the same step. Keys other than the marker come in ARGV; with a {hash tag}
// prefix they share its Cluster slot.
const SCRIPT = `
if ARGV[1] == '1' and redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local i = 2
while i <= #ARGV do
  local n = tonumber(ARGV[i])
  redis.call(unpack(ARGV, i + 1, i + n))
  i = i + n + 1
end
return 1
`;
const SHA = createHash('sha1').update(SCRIPT).digest('hex');

/** Options of {@link runGuardedSave}. */
export interface GuardedSaveOptions {
  redis: RedisConnection;
  /** The task's canceled marker: a save with `guard` writes nothing while it exists. */
  marker: string;
  guard: boolean;
  commands: readonly SaveCommand[];
}

/**
 * Runs a save's commands in one script call (`EVALSHA`, the script sent whole only when Redis does
 * not hold it yet). Returns false when the guard refused it: the task was canceled meanwhile.
 */
export async function runGuardedSave({
  redis,
  marker,
  guard,
  commands,
}: GuardedSaveOptions): Promise<boolean> {
  const argv = [guard ? '1' : '0', ...commands.flatMap((command) => [command.length, ...command])];
  let reply: unknown;
  try {
    reply = await redis.evalsha(SHA, 1, marker, ...argv);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    reply = await redis.eval(SCRIPT, 1, marker, ...argv);
  }
  return reply === 1;
}
