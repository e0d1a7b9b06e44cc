/**
 * What a service's memory is made of, once a second, as JSON lines: resident set (anonymous and
 * file-backed, from /proc/self/smaps_rollup), V8's heap spaces (committed and used), external and
 * ArrayBuffer memory. Loaded into every service with the soak's `--node-flags`:
 *
 *   SWITCHBOARD_MEMORY_DIR=/tmp/mem node bench/src/soak.ts --requests 2000 \
 *     --node-flags="--import=$PWD/bench/src/memory-sampler.ts --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=/tmp/mem"
 *
 * writes `/tmp/mem/memory-<service>-<pid>.jsonl` (`kill -USR2 <pid>` then writes a heap snapshot
 * there, for `heap-retainers.ts`). Without SWITCHBOARD_MEMORY_DIR it does nothing.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHeapSpaceStatistics } from 'node:v8';

const dir = process.env.SWITCHBOARD_MEMORY_DIR;
const mb = (bytes: number) => Math.round(bytes / 1048576);

/** A `<field>: <n> kB` line of /proc/self/smaps_rollup, in MB. */
function rollup(text: string, field: string): number {
  return mb(Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0) * 1024);
}

if (dir) {
  const service = /(?:apps|examples\/[^/]+)\/([^/]+)\//.exec(process.argv[1] ?? '')?.[1] ?? 'process';
  const file = join(dir, `memory-${service}-${process.pid}.jsonl`);
  const started = Date.now();
  setInterval(() => {
    const usage = process.memoryUsage();
    const smaps = readFileSync('/proc/self/smaps_rollup', 'utf8');
    const spaces = Object.fromEntries(
      getHeapSpaceStatistics()
        .filter((space) => space.space_size > 0)
        .map((space) => [
          space.space_name.replace(/_space$/, ''),
          { committed: mb(space.space_size), used: mb(space.space_used_size) },
        ]),
    );
    const sample = {
      s: Math.round((Date.now() - started) / 1000),
      rss: mb(usage.rss),
      anonymous: rollup(smaps, 'Anonymous'),
      file: rollup(smaps, 'Rss') - rollup(smaps, 'Anonymous'),
      heapTotal: mb(usage.heapTotal),
      heapUsed: mb(usage.heapUsed),
      external: mb(usage.external),
      arrayBuffers: mb(usage.arrayBuffers),
      spaces,
    };
    appendFileSync(file, `${JSON.stringify(sample)}\n`);
  }, 1000).unref();
}
