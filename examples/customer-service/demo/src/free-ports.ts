import { createServer } from 'node:net';

/** How many ports the system takes from the supervisor's: the supervisor's and one per worker. */
export const PORTS_PER_SYSTEM = 4;

const HOST = '127.0.0.1';

/** Whether nothing listens on `port` at 127.0.0.1 (where the services listen). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: HOST, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** The ports of `port`, `port + 1`, … `port + 3` that something already listens on. */
export async function portsInUse(port: number): Promise<number[]> {
  const ports = Array.from({ length: PORTS_PER_SYSTEM }, (_, i) => port + i);
  const free = await Promise.all(ports.map(portIsFree));
  return ports.filter((_, i) => !free[i]);
}

/** The ports are taken: says which, what needs them, and how to pick others. */
export class PortInUseError extends Error {
  readonly port: number;
  readonly taken: readonly number[];
  readonly suggestion: number | undefined;

  constructor(port: number, taken: readonly number[], suggestion: number | undefined) {
    const last = port + PORTS_PER_SYSTEM - 1;
    super(
      [
        `${taken.length === 1 ? 'Port' : 'Ports'} ${taken.join(', ')} ${taken.length === 1 ? 'is' : 'are'} already in use on ${HOST}, and the demo needs ${port}-${last}: the supervisor listens on SWITCHBOARD_DEMO_PORT (now ${port}) and the orders, inventory and comms workers on the next three.`,
        `Stop what listens there, or pick other ports, e.g.: SWITCHBOARD_DEMO_PORT=${suggestion ?? port + 100} pnpm demo`,
      ].join('\n'),
    );
    this.name = new.target.name;
    this.port = port;
    this.taken = taken;
    this.suggestion = suggestion;
  }
}

/**
 * Checks that the system's four ports from `port` are free; else throws {@link PortInUseError}
 * suggesting a free block (one of `port + 100`, `port + 200`, …).
 */
export async function assertPortsFree(port: number): Promise<void> {
  const taken = await portsInUse(port);
  if (taken.length === 0) return;
  let suggestion: number | undefined;
  for (let candidate = port + 100; candidate <= 65_532 && candidate < port + 2_000; candidate += 100) {
    if ((await portsInUse(candidate)).length === 0) {
      suggestion = candidate;
      break;
    }
  }
  throw new PortInUseError(port, taken, suggestion);
}
