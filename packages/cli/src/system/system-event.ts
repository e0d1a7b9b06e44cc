import { formatLogLine } from './log-line.ts';
import type { ServiceLogLine } from './service-process.ts';

/** A service exited by itself; the launcher restarts it after `restartInMs`. */
export interface ServiceCrashed {
  kind: 'crashed';
  service: string;
  /** The exit code, or the signal that ended it (`SIGKILL`). */
  exit: number | string;
  restartInMs: number;
  /** Its last log lines, oldest first. */
  lastLines: ServiceLogLine[];
}

/** A crashed service is ready again. */
export interface ServiceRestarted {
  kind: 'restarted';
  service: string;
  /** How many times it crashed within the restart policy's window, this time included. */
  crashes: number;
  pid: number | undefined;
}

/** A service kept crashing: the launcher stopped the whole system. */
export interface SystemGaveUp {
  kind: 'gave-up';
  service: string;
  /** Why, as a clause after the service's name: "crashed 5 times within 60 s (last: exit code 1)". */
  reason: string;
  lastLines: ServiceLogLine[];
}

/** What the launcher does about its services, as it happens. */
export type SystemEvent = ServiceCrashed | ServiceRestarted | SystemGaveUp;

/** Builders of {@link SystemEvent}s. */
export const systemEvent = {
  crashed: (fields: Omit<ServiceCrashed, 'kind'>): ServiceCrashed => ({ kind: 'crashed', ...fields }),
  restarted: (fields: Omit<ServiceRestarted, 'kind'>): ServiceRestarted => ({ kind: 'restarted', ...fields }),
  gaveUp: (fields: Omit<SystemGaveUp, 'kind'>): SystemGaveUp => ({ kind: 'gave-up', ...fields }),
};

/** `exit code 1`, or `killed by SIGKILL`. */
export function describeExit(exit: number | string): string {
  return typeof exit === 'number' ? `exit code ${exit}` : `killed by ${exit}`;
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

const withLines = (lines: readonly ServiceLogLine[]) =>
  lines.length > 0
    ? ['Its last log lines:', ...lines.map((line) => `  ${formatLogLine(line)}`)]
    : ['It logged nothing.'];

/**
 * An event as a person reads it: a headline, then the service's last log lines (as `formatLogLine`
 * writes them) where they help.
 *
 * @example
 * for (const line of describeSystemEvent(event)) output.err(line);
 */
export function describeSystemEvent(event: SystemEvent): string[] {
  switch (event.kind) {
    case 'crashed':
      return [
        `${event.service} stopped unexpectedly (${describeExit(event.exit)}); restarting it in ${seconds(event.restartInMs)}.`,
        ...withLines(event.lastLines),
      ];
    case 'restarted':
      return [
        `${event.service} is back (pid ${event.pid ?? '?'}; ${event.crashes === 1 ? '1 crash' : `${event.crashes} crashes`} in the restart window).`,
      ];
    case 'gave-up':
      return [
        `${event.service} keeps crashing: it ${event.reason}. Stopping the system.`,
        ...withLines(event.lastLines),
      ];
    default: {
      const unknown: never = event;
      throw new Error(`unknown system event ${JSON.stringify(unknown)}`);
    }
  }
}
