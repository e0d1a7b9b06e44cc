import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HostError } from '../../errors.ts';

/** Options of {@link startA2aHttpServer}. */
export interface StartA2aHttpServerOptions {
  /** The request listener, usually from `createA2aHttpApp`. */
  app: RequestListener;
  /** Default 0: any free port (read it from `url`). */
  port?: number;
  /** Default `127.0.0.1`; use `0.0.0.0` in a container. */
  host?: string;
  /** How long `close()` lets running requests (e.g. open streams) finish before cutting them (default 5000 ms). */
  closeGraceMs?: number;
}

/** A listening server. */
export interface A2aHttpServer {
  /** The base URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  readonly url: string;
  /**
   * Stops accepting connections, closes idle keep-alive ones at once and the rest when their
   * requests end (or after `closeGraceMs`), and resolves when the server is closed.
   */
  close(): Promise<void>;
}

/**
 * Listens with an app on a port and host, and resolves once it accepts connections.
 *
 * @example
 * const server = await startA2aHttpServer({ app: createA2aHttpApp({ requestHandler, card }) });
 * // ... server.url ...
 * await server.close();
 */
export async function startA2aHttpServer({
  app,
  port = 0,
  host = '127.0.0.1',
  closeGraceMs = 5_000,
}: StartA2aHttpServerOptions): Promise<A2aHttpServer> {
  if (typeof app !== 'function' || !Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new HostError('INVALID_OPTIONS', {
      message: `startA2aHttpServer needs an app (e.g. from createA2aHttpApp) and a port from 0 to 65535 (got ${port}).`,
    });
  }
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostname}:${address.port}`,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        const force = setTimeout(() => server.closeAllConnections(), closeGraceMs);
        force.unref();
        server.close((error) => {
          clearTimeout(force);
          if (error) reject(error);
          else resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
