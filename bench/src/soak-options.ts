/**
 * The command-line options of the soak and of the profile (which runs the soak): numbers with their
 * defaults, and `--redis-url`.
 */
import { parseArgs } from 'node:util';

const NUMBERS = {
  requests: 10_000,
  concurrency: 100,
  warmup: 100,
  'timeout-ms': 120_000,
  'latency-ms': 200,
} as const;
type NumberOption = keyof typeof NUMBERS;

/** The soak's options. */
export interface SoakOptions {
  requests: number;
  concurrency: number;
  warmup: number;
  timeoutMs: number;
  latencyMs: number;
  /** A shared Redis to use instead of a private one started for the run (then Redis counts include others' work). */
  redisUrl: string | undefined;
  /** Count commands by key family with MONITOR during the measured window (slows Redis). */
  monitor: boolean;
  /** Run on a private Redis Cluster (three masters, three replicas) instead of one node. */
  redisCluster: boolean;
}

/**
 * Parses `argv` (a leading `--`, which `pnpm <script> -- --requests 300` hands on, is skipped);
 * `extra` names further string options the caller reads from `strings`. On a wrong option, prints
 * what is wrong and the options to stderr and exits 2.
 */
export function readSoakOptions(
  command: string,
  argv: readonly string[],
  {
    defaults = {},
    extra = [],
  }: { defaults?: Partial<Record<NumberOption, number>>; extra?: readonly string[] } = {},
): { options: SoakOptions; strings: Record<string, string | undefined> } {
  const args = argv.filter((arg, i) => !(i === 0 && arg === '--'));
  const numbers = { ...NUMBERS, ...defaults };
  const names = Object.keys(numbers) as NumberOption[];
  const usage = () =>
    `options: ${names.map((name) => `--${name} <n> (default ${numbers[name]})`).join(', ')}, ` +
    `--redis-url <url> (default: a private redis-server), --monitor (count commands by key, slows Redis), --redis-cluster (a private Redis Cluster)${extra.map((name) => `, --${name} <value>`).join('')}`;
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...args],
      options: {
        ...Object.fromEntries(
          [...names, 'redis-url', ...extra].map((name) => [name, { type: 'string' as const }]),
        ),
        monitor: { type: 'boolean' as const },
        'redis-cluster': { type: 'boolean' as const },
      },
    }).values;
  } catch (error) {
    console.error(`${command}: ${error instanceof Error ? error.message : String(error)}`);
    console.error(usage());
    process.exit(2);
  }
  const read = (name: NumberOption) => {
    const raw = values[name];
    if (raw === undefined) return numbers[name];
    const value = Number(raw);
    const least = name === 'warmup' || name === 'latency-ms' ? 0 : 1;
    if (!Number.isInteger(value) || value < least) {
      console.error(
        `${command}: --${name} must be a whole number of at least ${least}; got "${String(raw)}".`,
      );
      process.exit(2);
    }
    return value;
  };
  const text = (name: string) => {
    const raw = values[name];
    return typeof raw === 'string' ? raw : undefined;
  };
  return {
    options: {
      requests: read('requests'),
      concurrency: read('concurrency'),
      warmup: read('warmup'),
      timeoutMs: read('timeout-ms'),
      latencyMs: read('latency-ms'),
      redisUrl: text('redis-url'),
      monitor: values.monitor === true,
      redisCluster: values['redis-cluster'] === true,
    },
    strings: Object.fromEntries(extra.map((name) => [name, text(name)])),
  };
}
