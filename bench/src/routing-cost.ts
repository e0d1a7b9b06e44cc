/**
 * What embedding recall costs the tool router: the labelled requests of the routing catalogue
 * (examples/customer-service/evals/routing: 204 tools, requests.yaml and holdout.yaml) routed by
 * BM25 alone (the baseline) and by hybrid recall on the local embedding model
 * (`@switchboard/embeddings-local`), each arm in a fresh process of its own, in the same run. Each
 * arm routes every request `--passes` times; the first pass meets each request length for the first
 * time (the model compiles its kernels per input shape), later ones do not. Printed: ms per routed
 * request (p50, p99) per pass kind, the startup (model load and the tools' embeddings), and the peak
 * resident set of each process; the targets are at most 20 ms added at p50 and 250 MB added.
 *
 * `--semi-space-mb <n>` runs both processes with Node's `--max-semi-space-size=<n>`: V8 otherwise keeps
 * growing its young generation under the model's short-lived garbage (the retained heap stays near 25
 * MB), and that, not the model, is most of the memory added.
 *
 *   pnpm --filter @switchboard/bench routing-cost [--passes <n, default 3>] [--semi-space-mb <n>]
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { ToolRouter, Toolset } from '@switchboard/agent';
import { LocalEmbedder } from '@switchboard/embeddings-local';
import { loadRoutingCatalogue } from '@switchboard/eval';
import { memoryMb } from './proc-stats.ts';

const CATALOGUE = fileURLToPath(new URL('../../examples/customer-service/evals/routing', import.meta.url));
const TARGET_ADDED_P50_MS = 20;
const TARGET_ADDED_RSS_MB = 250;

const { values } = parseArgs({
  options: {
    arm: { type: 'string' },
    passes: { type: 'string', default: '3' },
    'semi-space-mb': { type: 'string' },
  },
});
const SEMI_SPACE = values['semi-space-mb'];
if (SEMI_SPACE !== undefined && !/^[1-9]\d*$/.test(SEMI_SPACE)) {
  console.error(`--semi-space-mb ${SEMI_SPACE} must be a whole number of MB, e.g. --semi-space-mb 2`);
  process.exit(2);
}
const PASSES = Number(values.passes);
if (!Number.isInteger(PASSES) || PASSES < 2) {
  console.error(`--passes ${values.passes} must be a whole number of at least 2, e.g. --passes 3`);
  process.exit(2);
}

/** What one arm measured, in its own process. */
interface ArmResult {
  requests: number;
  tools: number;
  startupMs: number;
  first: number[];
  later: number[];
  startupRssMb: number;
  peakRssMb: number;
  endRssMb: number;
}

async function runArm(arm: 'lexical' | 'hybrid'): Promise<ArmResult> {
  const sets = await Promise.all(
    ['requests', 'holdout'].map((requests) => loadRoutingCatalogue({ dir: CATALOGUE, requests })),
  );
  const tools = sets[0]?.tools ?? [];
  const texts = sets.flatMap((set) => set.requests.map((request) => request.text));
  const toolset = new Toolset(tools);
  const begun = performance.now();
  const router = arm === 'lexical' ? new ToolRouter() : new ToolRouter({ embedder: new LocalEmbedder() });
  // The first decision builds the index (and embeds every tool): startup, not a request's cost.
  await router.route({ request: 'hello', toolset });
  const startupMs = performance.now() - begun;
  const startupRssMb = (await memoryMb(process.pid, 'VmRSS')) ?? 0;
  const first: number[] = [];
  const later: number[] = [];
  for (let pass = 0; pass < PASSES; pass++)
    for (const request of texts) {
      const start = performance.now();
      await router.route({ request, toolset });
      (pass === 0 ? first : later).push(performance.now() - start);
    }
  const peakRssMb = (await memoryMb(process.pid, 'VmHWM')) ?? 0;
  // What stays: the heap's garbage collected first (the child runs with --expose-gc).
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const endRssMb = (await memoryMb(process.pid, 'VmRSS')) ?? 0;
  return {
    requests: texts.length,
    tools: tools.length,
    startupMs,
    first,
    later,
    startupRssMb,
    peakRssMb,
    endRssMb,
  };
}

if (values.arm === 'lexical' || values.arm === 'hybrid') {
  console.log(JSON.stringify(await runArm(values.arm)));
} else {
  const self = fileURLToPath(import.meta.url);
  const flags = ['--expose-gc', ...(SEMI_SPACE ? [`--max-semi-space-size=${SEMI_SPACE}`] : [])];
  const measureArm = async (arm: string) => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [...flags, self, '--arm', arm, '--passes', String(PASSES)],
      {
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    return JSON.parse(stdout) as ArmResult;
  };
  const lexical = await measureArm('lexical');
  const hybrid = await measureArm('hybrid');
  const quantile = (values: number[], q: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  };
  const ms = (value: number) => value.toFixed(2);
  const pad = (value: string | number, width: number) => String(value).padStart(width);
  console.log(
    `Tool routing cost: ${lexical.requests} labelled requests over ${lexical.tools} tools, ${PASSES} passes, each arm in a fresh process${SEMI_SPACE ? ` (node --max-semi-space-size=${SEMI_SPACE})` : ''}\n`,
  );
  console.log(`${''.padEnd(34)}${pad('BM25 alone', 12)}${pad('hybrid', 12)}${pad('added', 12)}`);
  const row = (label: string, a: number, b: number, unit: (v: number) => string) =>
    console.log(`${label.padEnd(34)}${pad(unit(a), 12)}${pad(unit(b), 12)}${pad(unit(b - a), 12)}`);
  row('ms per request p50, first pass', quantile(lexical.first, 0.5), quantile(hybrid.first, 0.5), ms);
  row('ms per request p99, first pass', quantile(lexical.first, 0.99), quantile(hybrid.first, 0.99), ms);
  row('ms per request p50, later passes', quantile(lexical.later, 0.5), quantile(hybrid.later, 0.5), ms);
  row('ms per request p99, later passes', quantile(lexical.later, 0.99), quantile(hybrid.later, 0.99), ms);
  row('startup ms (index, model, tools)', lexical.startupMs, hybrid.startupMs, (v) => v.toFixed(0));
  row('RSS MB after startup', lexical.startupRssMb, hybrid.startupRssMb, (v) => v.toFixed(0));
  row('peak RSS MB', lexical.peakRssMb, hybrid.peakRssMb, (v) => v.toFixed(0));
  row('RSS MB after the passes and a GC', lexical.endRssMb, hybrid.endRssMb, (v) => v.toFixed(0));
  const addedP50 =
    quantile(hybrid.first.concat(hybrid.later), 0.5) - quantile(lexical.first.concat(lexical.later), 0.5);
  const addedRss = hybrid.peakRssMb - lexical.peakRssMb;
  const met = addedP50 <= TARGET_ADDED_P50_MS && addedRss <= TARGET_ADDED_RSS_MB;
  console.log(
    `\ntarget: at most ${TARGET_ADDED_P50_MS} ms added at p50 (all passes) and ${TARGET_ADDED_RSS_MB} MB of RSS added: ` +
      `${ms(addedP50)} ms, ${addedRss.toFixed(0)} MB -> ${met ? 'met' : 'MISSED'}`,
  );
  process.exitCode = met ? 0 : 1;
}
