/**
 * What the cost book costs: recording 10,000 root requests of five agents each, spread over 93 days,
 * into a `RedisCostBook` on a private `redis-server`, against one `HINCRBY` per request (the
 * baseline: the least a shared counter costs) in the same run; then reading the costs page's figures
 * for 93 days and for one, and the memory the book holds. Target: a record under 5 ms at p99, a
 * 93-day read under 50 ms, under 1 MB in Redis.
 *
 *   pnpm --filter @switchboard/bench cost-book
 */
import { costOf } from '@switchboard/agent';
import { RedisCostBook } from '@switchboard/host/redis';
import { createRedisConnection } from '@switchboard/redis';
import { startPrivateRedis } from './private-redis.ts';

const REQUESTS = 10_000;
const DAYS = 93;
const AGENTS = ['supervisor', 'orders', 'inventory', 'comms', 'billing'];
const READS = 20;
const prefix = '{bench:costs}';
const today = Date.UTC(2026, 11, 4, 12);

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

async function timed(times: number[], work: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await work();
  times.push(performance.now() - started);
}

const server = await startPrivateRedis();
const redis = createRedisConnection({ url: server.url });
try {
  // Each request written at once: what one script costs (a service adds them up for 2 s first).
  const book = new RedisCostBook({ redis, prefix, flushEveryMs: 0 });
  const baseline: number[] = [];
  const records: number[] = [];
  for (let n = 0; n < REQUESTS; n++) {
    const at = new Date(today - (n % DAYS) * 86_400_000);
    const cost = costOf(
      AGENTS.map((agent, i) => ({
        agent,
        tokensIn: 300 + i + n,
        tokensOut: 40 + i,
        modelMs: 120 + i,
        toolMs: 30 + i,
        queueWaitMs: i,
        hops: 1,
      })),
    );
    await timed(baseline, () => redis.hincrby(`${prefix}:baseline`, 'requests', 1));
    await timed(records, () => book.record({ taskId: `task-${n}`, at, cost }));
  }
  const day = (offset: number) => new Date(today - offset * 86_400_000).toISOString().slice(0, 10);
  const reads93: number[] = [];
  const reads1: number[] = [];
  for (let round = 0; round < READS; round++) {
    await timed(reads93, () => book.days({ from: day(DAYS - 1), to: day(0) }));
    await timed(reads1, () => book.days({ from: day(0), to: day(0) }));
  }
  const read = await book.days({ from: day(DAYS - 1), to: day(0) });
  const requests = read.reduce((sum, entry) => sum + entry.requests, 0);
  if (requests !== REQUESTS || read.length !== DAYS) {
    throw new Error(
      `the book holds ${requests} requests over ${read.length} days, not ${REQUESTS} over ${DAYS}`,
    );
  }
  const keys = await redis.keys(`${prefix}:costs:*`);
  let bytes = 0;
  for (const key of keys) bytes += Number(await redis.call('MEMORY', 'USAGE', key));
  for (const times of [baseline, records, reads93, reads1]) times.sort((a, b) => a - b);
  const rows = [
    ['HINCRBY one counter (baseline)', baseline],
    ['record one request (5 agents)', records],
    [`read ${DAYS} days`, reads93],
    ['read one day', reads1],
  ] as const;
  console.log(
    `${REQUESTS} root requests of ${AGENTS.length} agents over ${DAYS} days; ${READS} reads of each`,
  );
  console.log('operation                      |  p50 ms |  p99 ms');
  for (const [label, times] of rows) {
    console.log(
      `${label.padEnd(30)} | ${percentile(times, 0.5).toFixed(2).padStart(7)} | ${percentile(times, 0.99).toFixed(2).padStart(7)}`,
    );
  }
  console.log(`Redis: ${keys.length} keys, ${(bytes / 1024).toFixed(0)} KB (MEMORY USAGE)`);
} finally {
  await redis.quit();
  await server.stop();
}
