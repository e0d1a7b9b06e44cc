import type { TeamService } from '@switchboard/team';
import { CliError } from '../errors.ts';
import { CrashHistory, type ResolvedRestartPolicy } from './restart-policy.ts';
import type { ServiceProcess } from './service-process.ts';
import { describeExit, type SystemEvent, type SystemGaveUp, systemEvent } from './system-event.ts';

/** Options of {@link ProcessSupervisor}. */
export interface ProcessSupervisorOptions {
  /** Spawns one process of a service (it is not ready yet). */
  spawn: (service: TeamService, replica: number) => ServiceProcess;
  readyTimeoutMs: number;
  /** How crashed services are restarted; without one they stay down. */
  policy: ResolvedRestartPolicy | undefined;
  onEvent?: ((event: SystemEvent) => void) | undefined;
}

/**
 * Holds the system's service processes and keeps them running: a process that exits by itself
 * (not by `stop()`, `kill()` or the system's stop) is reported and started again after the
 * policy's backoff. When one keeps crashing, or a restart dies before it is ready, the supervisor
 * reports it, stops every service and resolves `failed`.
 */
export class ProcessSupervisor {
  /** The current process of each service, by name. */
  readonly services = new Map<string, ServiceProcess>();
  /** Resolves when the supervisor gave up and stopped the system. */
  readonly failed: Promise<SystemGaveUp>;
  readonly #o: ProcessSupervisorOptions;
  readonly #histories = new Map<string, CrashHistory>();
  readonly #timers = new Set<NodeJS.Timeout>();
  #stopping: Promise<void> | undefined;
  #gaveUp: (event: SystemGaveUp) => void = () => {};

  constructor(options: ProcessSupervisorOptions) {
    this.#o = options;
    this.failed = new Promise((resolve) => {
      this.#gaveUp = resolve;
    });
  }

  /** Starts one process of a service, waits until it is ready, and watches it from then on. */
  async start(service: TeamService, replica: number): Promise<ServiceProcess> {
    const running = this.#spawn(service, replica);
    await running.ready(this.#o.readyTimeoutMs);
    this.#watch(running, service, replica);
    return running;
  }

  /** Stops every service (SIGTERM and drain), supervisor first; no restart after this. Idempotent. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      for (const timer of this.#timers) clearTimeout(timer);
      await this.services.get('supervisor')?.stop();
      await Promise.all([...this.services.values()].map((running) => running.stop()));
    })();
    return this.#stopping;
  }

  #spawn(service: TeamService, replica: number): ServiceProcess {
    const running = this.#o.spawn(service, replica);
    // In the map from the start, so a stop while it starts stops it too.
    this.services.set(running.name, running);
    return running;
  }

  #watch(running: ServiceProcess, service: TeamService, replica: number): void {
    const { policy } = this.#o;
    if (!policy) return;
    void running.exited.then((exit) => {
      if (this.#stopping || running.exitExpected || this.services.get(running.name) !== running) return;
      const history = this.#histories.get(running.name) ?? new CrashHistory(policy);
      this.#histories.set(running.name, history);
      const verdict = history.record(Date.now());
      if (!verdict.restart) {
        this.#giveUp({
          service: running.name,
          reason: `crashed ${verdict.crashes} times within ${verdict.windowMs / 1000} s (last: ${describeExit(exit)})`,
          lastLines: running.lastLines(),
        });
        return;
      }
      this.#o.onEvent?.(
        systemEvent.crashed({
          service: running.name,
          exit,
          restartInMs: verdict.delayMs,
          lastLines: running.lastLines(),
        }),
      );
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        if (!this.#stopping) void this.#restart(service, replica, verdict.crashes);
      }, verdict.delayMs);
      this.#timers.add(timer);
    });
  }

  async #restart(service: TeamService, replica: number, crashes: number): Promise<void> {
    const next = this.#spawn(service, replica);
    try {
      await next.ready(this.#o.readyTimeoutMs);
    } catch (error) {
      // A restart that cannot get as far as ready will not do better on the next try.
      this.#giveUp({
        service: next.name,
        reason:
          error instanceof CliError && error.code === 'SERVICE_NOT_READY'
            ? `was not ready within ${this.#o.readyTimeoutMs / 1000} s after a restart`
            : `stopped again before it was ready (${describeExit(await next.exited)})`,
        lastLines: next.lastLines(),
      });
      return;
    }
    if (this.#stopping) return;
    this.#o.onEvent?.(systemEvent.restarted({ service: next.name, crashes, pid: next.child.pid }));
    this.#watch(next, service, replica);
  }

  #giveUp(fields: Omit<SystemGaveUp, 'kind'>): void {
    if (this.#stopping) return;
    const event = systemEvent.gaveUp(fields);
    this.#o.onEvent?.(event);
    this.#gaveUp(event);
    void this.stop();
  }
}
