/**
 * What a process holds, written once a second to `<SWITCHBOARD_PROBE_DIR>/probe-<service>-<pid>.json`
 * (the file is replaced each time): `process.memoryUsage()`, the resident set from
 * /proc/self/smaps_rollup (anonymous and file-backed), V8's heap spaces, and the modules loaded so far
 * (ES modules and CommonJS, through `module.registerHooks`) with their source size, by package.
 * Loaded with `--import` by `service-memory.ts`; without SWITCHBOARD_PROBE_DIR it does nothing.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { getHeapSpaceStatistics } from 'node:v8';

const dir = process.env.SWITCHBOARD_PROBE_DIR;
const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

/** `@scope/name` or `name` of a module URL under node_modules, `@switchboard/<folder>` of ours. */
function packageOf(url: string): string {
  const inModules = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
  if (inModules) return inModules;
  const ours = /\/(?:packages|examples\/[^/]+|bench|apps)\/([^/]+)\//.exec(url)?.[1];
  return ours ? `@switchboard/${ours}` : url.startsWith('node:') ? 'node:' : 'other';
}

function rollup(text: string, field: string): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0) * 1024;
}

if (dir) {
  const modules = new Map<string, { count: number; bytes: number }>();
  registerHooks({
    load(url, context, nextLoad) {
      const loaded = nextLoad(url, context);
      if (!url.startsWith('node:')) {
        const entry = modules.get(packageOf(url)) ?? { count: 0, bytes: 0 };
        entry.count++;
        const source = loaded.source;
        entry.bytes += typeof source === 'string' ? Buffer.byteLength(source) : (source?.byteLength ?? 0);
        modules.set(packageOf(url), entry);
      }
      return loaded;
    },
  });
  const service = /(?:apps|examples\/[^/]+)\/([^/]+)\//.exec(process.argv[1] ?? '')?.[1] ?? 'process';
  const file = join(dir, `probe-${service}-${process.pid}.json`);
  const write = () => {
    const usage = process.memoryUsage();
    const smaps = readFileSync('/proc/self/smaps_rollup', 'utf8');
    const report = {
      service,
      pid: process.pid,
      uptimeS: Math.round(process.uptime()),
      rss: mb(usage.rss),
      anonymous: mb(rollup(smaps, 'Anonymous')),
      file: mb(rollup(smaps, 'Rss') - rollup(smaps, 'Anonymous')),
      heapTotal: mb(usage.heapTotal),
      heapUsed: mb(usage.heapUsed),
      external: mb(usage.external),
      arrayBuffers: mb(usage.arrayBuffers),
      spaces: Object.fromEntries(
        getHeapSpaceStatistics().map((space) => [
          space.space_name.replace(/_space$/, ''),
          { committed: mb(space.space_size), used: mb(space.space_used_size) },
        ]),
      ),
      modules: Object.fromEntries(modules),
    };
    writeFileSync(`${file}.tmp`, JSON.stringify(report));
    renameSync(`${file}.tmp`, file);
  };
  setInterval(write, 1000).unref();
}
