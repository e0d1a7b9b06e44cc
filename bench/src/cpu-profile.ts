/**
 * Reading a V8 CPU profile (`node --cpu-prof` writes one `.cpuprofile` per process when it exits):
 * the busy time of a window of it, by concern (`profile-concerns.ts`) and by function (self time).
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { concernOf, type Frame, isIdle } from './profile-concerns.ts';

/** The parts of a `.cpuprofile` read here (times in µs on the monotonic clock). */
export const CpuProfile = z.object({
  nodes: z.array(
    z.object({
      id: z.number(),
      callFrame: z.object({ functionName: z.string(), url: z.string(), lineNumber: z.number() }),
      children: z.array(z.number()).optional(),
    }),
  ),
  startTime: z.number(),
  endTime: z.number(),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
});
export type CpuProfile = z.infer<typeof CpuProfile>;

/** Reads and checks a `.cpuprofile` file. */
export async function readCpuProfile(path: string): Promise<CpuProfile> {
  return CpuProfile.parse(JSON.parse(await readFile(path, 'utf8')));
}

/** A window's busy time, in ms. */
export interface ProfileSummary {
  busyMs: number;
  /** Busy ms by concern. */
  byConcern: Map<string, number>;
  /** Busy ms by the function a sample was in (self time), keyed `name (file:line)`. */
  bySelf: Map<string, number>;
}

/** A URL made short enough to read: the package and file, or the path in this repository. */
export function shortUrl(url: string): string {
  const inPackage = /.*\/node_modules\/((@[^/]+\/)?[^/]+\/.*)$/.exec(url)?.[1];
  if (inPackage) return inPackage;
  return url.replace(/^file:\/\/.*?\/(packages|apps|examples|bench)\//, '$1/').replace(/^file:\/\//, '');
}

const functionLabel = ({ functionName, url, lineNumber }: CpuProfile['nodes'][number]['callFrame']) =>
  `${functionName || '(anonymous)'}${url ? ` (${shortUrl(url)}:${lineNumber + 1})` : ''}`;

const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);

/**
 * Sums the samples taken between `fromUs` and `toUs` (the whole profile by default): each sample
 * weighs the time until the next one, as Chrome's profiler counts it; idle samples are left out.
 */
export function summarizeProfile(
  profile: CpuProfile,
  { fromUs = -Infinity, toUs = Infinity }: { fromUs?: number; toUs?: number } = {},
): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const concerns = new Map<number, string | undefined>();
  const concernOfNode = (id: number) => {
    if (concerns.has(id)) return concerns.get(id);
    const stack: Frame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame) stack.push(frame);
    }
    const concern = stack[0] && isIdle(stack[0]) ? undefined : concernOf(stack);
    concerns.set(id, concern);
    return concern;
  };
  const summary: ProfileSummary = { busyMs: 0, byConcern: new Map(), bySelf: new Map() };
  let at = profile.startTime;
  const times = profile.timeDeltas.map((delta) => (at += delta));
  profile.samples.forEach((id, i) => {
    const time = times[i] ?? 0;
    const next = times[i + 1] ?? profile.endTime;
    if (time < fromUs || time >= toUs) return;
    const concern = concernOfNode(id);
    const node = byId.get(id);
    if (concern === undefined || !node) return;
    const ms = Math.max(0, next - time) / 1000;
    summary.busyMs += ms;
    add(summary.byConcern, concern, ms);
    add(summary.bySelf, functionLabel(node.callFrame), ms);
  });
  return summary;
}
