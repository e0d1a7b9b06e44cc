/**
 * Memory and CPU of processes on this Linux machine, read from /proc: a sampler that keeps the peak
 * resident set of each process (VmRSS every `intervalMs`, and for processes that live only as long
 * as the window, VmHWM, the kernel's own peak, at the end) and the CPU time each took over the window.
 */
import { readFile } from 'node:fs/promises';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ; 100 on every Linux Node supports). */
const TICKS_PER_SECOND = 100;

async function read(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** A `Vm…` line of /proc/<pid>/status, in MB; undefined once the process is gone. */
export async function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number | undefined> {
  const status = await read(`/proc/${pid}/status`);
  const kb = status && new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1];
  return kb ? Number(kb) / 1024 : undefined;
}

/** User + system CPU time of a process so far, in ms; undefined once it is gone. */
export async function cpuMs(pid: number): Promise<number | undefined> {
  const stat = await read(`/proc/${pid}/stat`);
  // The command name (field 2) may hold spaces and parentheses: count the fields after its last ')'.
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields?.[11]);
  const stime = Number(fields?.[12]);
  return Number.isFinite(utime) && Number.isFinite(stime)
    ? ((utime + stime) * 1000) / TICKS_PER_SECOND
    : undefined;
}

/** Busy and total CPU time of the whole machine so far (all cores), in ticks. */
export async function machineTicks(): Promise<{ busy: number; total: number }> {
  const line = (await read('/proc/stat'))?.split('\n')[0] ?? '';
  const [, ...values] = line.trim().split(/\s+/);
  const ticks = values.map(Number);
  const total = ticks.reduce((sum, value) => sum + value, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return { busy: total - idle, total };
}

/** What the sampler saw of one process. */
export interface ProcessUsage {
  name: string;
  pid: number;
  /** Largest VmRSS sampled (or VmHWM at the end if larger and asked for), in MB. */
  peakMb: number;
  /** CPU time over the window, in ms. */
  cpuMs: number;
  /** The largest VmRSS sampled in each tenth of the window, in MB (0 where none was read). */
  rssByTenth: number[];
  /** The most CPU it used in any one second of the window, in cores (1 = one core all that second). */
  peakCores: number;
  /** The process was gone before the window ended. */
  vanished: boolean;
}

/** Samples the peak memory of some processes and measures their CPU time between start and stop. */
export class ProcessSampler {
  readonly #processes: ReadonlyMap<string, number>;
  readonly #highWaterMarks: ReadonlySet<string>;
  readonly #intervalMs: number;
  readonly #peaks = new Map<string, number>();
  /** VmRSS readings per process: [time ms, MB]. */
  readonly #rss = new Map<string, [number, number][]>();
  #startedAt = 0;
  readonly #cpuAtStart = new Map<string, number>();
  /** The last second of CPU readings per process, oldest first: [time ms, CPU ms]. */
  readonly #recent = new Map<string, [number, number][]>();
  readonly #peakCores = new Map<string, number>();
  #machineAtStart = { busy: 0, total: 0 };
  #timer: NodeJS.Timeout | undefined;

  /**
   * `processes`: name → pid; `highWaterMarks`: the names whose VmHWM also counts (a process started
   * for this window: its peak over its whole life is the window's).
   */
  constructor({
    processes,
    highWaterMarks = new Set(),
    intervalMs = 250,
  }: {
    processes: ReadonlyMap<string, number>;
    highWaterMarks?: ReadonlySet<string>;
    intervalMs?: number;
  }) {
    this.#processes = processes;
    this.#highWaterMarks = highWaterMarks;
    this.#intervalMs = intervalMs;
  }

  async start(): Promise<void> {
    this.#startedAt = performance.now();
    this.#machineAtStart = await machineTicks();
    for (const [name, pid] of this.#processes) this.#cpuAtStart.set(name, (await cpuMs(pid)) ?? 0);
    await this.#sample();
    this.#timer = setInterval(() => void this.#sample(), this.#intervalMs);
  }

  /** Stops sampling; the usage of each process over the window, and the machine's busy share of it. */
  async stop(): Promise<{ processes: ProcessUsage[]; machineBusy: number }> {
    clearInterval(this.#timer);
    await this.#sample();
    const machine = await machineTicks();
    const tenth = (performance.now() - this.#startedAt) / 10;
    const processes: ProcessUsage[] = [];
    for (const [name, pid] of this.#processes) {
      const cpu = await cpuMs(pid);
      const hwm = this.#highWaterMarks.has(name) ? ((await memoryMb(pid, 'VmHWM')) ?? 0) : 0;
      processes.push({
        name,
        pid,
        peakMb: Math.max(this.#peaks.get(name) ?? 0, hwm),
        cpuMs: (cpu ?? 0) - (this.#cpuAtStart.get(name) ?? 0),
        peakCores: this.#peakCores.get(name) ?? 0,
        rssByTenth: (this.#rss.get(name) ?? []).reduce(
          (tenths, [at, mb]) => {
            const index = Math.min(9, Math.floor((at - this.#startedAt) / tenth));
            tenths[index] = Math.max(tenths[index] ?? 0, mb);
            return tenths;
          },
          Array.from({ length: 10 }, () => 0),
        ),
        vanished: cpu === undefined,
      });
    }
    const total = machine.total - this.#machineAtStart.total;
    return { processes, machineBusy: total > 0 ? (machine.busy - this.#machineAtStart.busy) / total : 0 };
  }

  async #sample(): Promise<void> {
    for (const [name, pid] of this.#processes) {
      const rss = await memoryMb(pid, 'VmRSS');
      if (rss !== undefined) {
        this.#peaks.set(name, Math.max(this.#peaks.get(name) ?? 0, rss));
        const series = this.#rss.get(name) ?? [];
        series.push([performance.now(), rss]);
        this.#rss.set(name, series);
      }
      const cpu = await cpuMs(pid);
      if (cpu !== undefined) this.#trackCores(name, performance.now(), cpu);
    }
  }

  /** Keeps the highest CPU rate over a window of at least a second ending at this reading. */
  #trackCores(name: string, now: number, cpu: number): void {
    const recent = this.#recent.get(name) ?? [];
    recent.push([now, cpu]);
    while (recent.length > 2 && now - (recent[1]?.[0] ?? now) >= 1_000) recent.shift();
    const [then, cpuThen] = recent[0] ?? [now, cpu];
    if (now - then >= 1_000) {
      this.#peakCores.set(name, Math.max(this.#peakCores.get(name) ?? 0, (cpu - cpuThen) / (now - then)));
    }
    this.#recent.set(name, recent);
  }
}
