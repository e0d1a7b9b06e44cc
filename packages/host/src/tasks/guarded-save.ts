import { type RedisConnection, RedisScript } from '@switchboard/redis';

/**
 * One command of a save: its name, then its arguments, the first of them its key (`SET`, `ZADD`,
 * `ZREM`, `HSET`, `PEXPIRE`, ...); a `PUBLISH` names a channel, not a key.
 */
export type SaveCommand = readonly [name: string, ...args: (string | number)[]];

/** Commands whose first argument is not a key. */
const KEYLESS = new Set(['PUBLISH']);

// Runs the commands unless ARGV[1] asks for the guard and the task was canceled (KEYS[1], the canceled
// marker, exists): atomic, as MULTI was, with the guard in the same step. Every key a command touches
// is declared in KEYS, as Redis Cluster wants (with a {hash tag} prefix they share its slot); each
// command comes in ARGV as its key's index in KEYS (0: none), its count of other arguments, its name
// and those arguments.
const SCRIPT = new RedisScript(`
if ARGV[1] == '1' and redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local i = 2
while i <= #ARGV do
  local k = tonumber(ARGV[i])
  local n = tonumber(ARGV[i + 1])
  if k > 0 then
    redis.call(ARGV[i + 2], KEYS[k], unpack(ARGV, i + 3, i + 2 + n))
  else
    redis.call(ARGV[i + 2], unpack(ARGV, i + 3, i + 2 + n))
  end
  i = i + 3 + n
end
return 1
`);

/** Options of {@link runGuardedSave}. */
export interface GuardedSaveOptions {
  redis: RedisConnection;
  /** The task's canceled marker: a save with `guard` writes nothing while it exists. */
  marker: string;
  guard: boolean;
  commands: readonly SaveCommand[];
}

/**
 * Runs a save's commands in one script call (by its SHA1: the script is sent whole only when Redis
 * does not hold it yet). Returns false when the guard refused it: the task was canceled meanwhile.
 */
export async function runGuardedSave({
  redis,
  marker,
  guard,
  commands,
}: GuardedSaveOptions): Promise<boolean> {
  const keys = [marker];
  const argv: (string | number)[] = [guard ? '1' : '0'];
  for (const [name, ...args] of commands) {
    if (KEYLESS.has(name.toUpperCase())) {
      argv.push(0, args.length, name, ...args);
    } else {
      keys.push(String(args[0]));
      argv.push(keys.length, args.length - 1, name, ...args.slice(1));
    }
  }
  return (await SCRIPT.run(redis, keys, argv)) === 1;
}
