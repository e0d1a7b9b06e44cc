/**
 * Which Redis commands go where: a `MONITOR` connection that counts every command (those run inside
 * Lua scripts included) by command and key family, the first key with its ids masked
 * (`{ns:orders}:task:<id>` → `task:*`). MONITOR slows Redis down, so the soak opens one only when
 * asked (`--monitor`), and its CPU figures are then not the ones to quote.
 */
import { createRedisConnection } from '@switchboard/redis';

/** Commands whose first argument is not a key, and where their first key is instead. */
const KEY_AT: Record<string, number> = { evalsha: 3, eval: 3, fcall: 3, xread: -1, xreadgroup: -1 };
const NO_KEY = new Set(['multi', 'exec', 'discard', 'ping', 'info', 'client', 'script', 'select', 'publish']);

/** A key with the parts that name one thing (ids, numbers, the namespace) masked. */
export function keyFamily(key: string): string {
  return key
    .replace(/^\{[^}]*?:?([a-z-]*)\}/i, '')
    .split(':')
    .filter(Boolean)
    .map((part) =>
      /^[0-9a-f-]{16,}$/i.test(part) || /^\d+(-\d+)?$/.test(part) || part.length > 24 || /%/.test(part)
        ? '*'
        : part,
    )
    .join(':');
}

function familyOf(args: readonly string[]): string {
  const command = (args[0] ?? '').toLowerCase();
  if (NO_KEY.has(command)) return command;
  let at = KEY_AT[command] ?? 1;
  if (at === -1) {
    const streams = args.findIndex((arg) => arg.toLowerCase() === 'streams');
    at = streams === -1 ? 1 : streams + 1;
  }
  if (command === 'evalsha' || command === 'eval') {
    if (Number(args[2] ?? 0) === 0) return `${command} (no keys)`;
  }
  const key = args[at];
  return key === undefined ? command : `${command} ${keyFamily(key)}`;
}

/** One command family's share: how many ran, and the bytes of those a client sent (not those a Lua script ran). */
export interface FamilyCount {
  count: number;
  bytes: number;
}

/** A running count; `stop()` ends it and gives the counts by "command family". */
export interface CommandMonitor {
  stop(): Promise<Map<string, FamilyCount>>;
}

/** Starts counting every command the server at `url` runs, by command and key family. */
export async function monitorCommands(url: string): Promise<CommandMonitor> {
  const counts = new Map<string, FamilyCount>();
  const client = createRedisConnection({ url });
  const monitor = await client.monitor();
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    const family = familyOf(args);
    const entry = counts.get(family) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    if (source !== 'lua') for (const arg of args) entry.bytes += Buffer.byteLength(arg);
    counts.set(family, entry);
  });
  return {
    async stop() {
      monitor.disconnect();
      await client.quit();
      return counts;
    },
  };
}
