import { createServer } from 'node:net';

/**
 * Ports the system never hands out by itself: below the ephemeral range that outgoing connections
 * take their local ports from (32768-60999 on Linux, 49152+ on macOS). A port found free there stays
 * free until a test listens on it, where a port probed by listening on port 0 may meanwhile go to an
 * outgoing connection (a busy machine makes thousands: Redis, HTTP), and the service then fails with
 * EADDRINUSE.
 */
const LOW_PORTS = { from: 20_000, to: 32_000 };

/** Whether a server can listen on `port` at 127.0.0.1 now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * A loopback port that nothing listens on, between 20000 and 32000, so that no outgoing connection
 * takes it before the test's service listens there. With `count`, the first of that many consecutive
 * free ports (a system whose services take `port`, `port + 1`, …).
 *
 * @example
 * const port = await freePort(); // e.g. 27113
 * const first = await freePort({ count: 4 }); // first … first + 3 are free
 */
export async function freePort({ count = 1 }: { count?: number } = {}): Promise<number> {
  if (!Number.isInteger(count) || count < 1 || count > 100) {
    throw new RangeError(`freePort: count must be a whole number from 1 to 100, not ${count}`);
  }
  for (;;) {
    const port = LOW_PORTS.from + Math.floor(Math.random() * (LOW_PORTS.to - LOW_PORTS.from - count));
    const ports = Array.from({ length: count }, (_, index) => port + index);
    if ((await Promise.all(ports.map(canListen))).every(Boolean)) return port;
  }
}
