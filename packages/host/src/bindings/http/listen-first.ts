import express, { type Express } from 'express';
import { type A2aHttpServer, startA2aHttpServer } from './start-server.ts';

/** A server that listens before its routes exist; see {@link listenFirst}. */
export interface EarlyServer extends A2aHttpServer {
  /** The server's app: answers 503 to every request until `open()`. */
  readonly app: Express;
  /** Lets requests through to what was added to `app`. */
  open(): void;
}

/**
 * Listens on a port before the app is complete: a card names the URL its server listens on, and
 * with port 0 that is known only once the system picked one (a random port in the ephemeral range
 * was sometimes taken on a busy machine). Until `open()`, every request gets 503.
 */
export async function listenFirst({
  port = 0,
  host,
}: {
  port?: number;
  host?: string;
}): Promise<EarlyServer> {
  const app = express();
  // This app answers every request (the routes are mounted on it): no framework name in them.
  app.disable('x-powered-by');
  let opened = false;
  app.use((_req, res, next) => {
    if (opened) next();
    else res.status(503).json({ error: 'starting' });
  });
  const server = await startA2aHttpServer({ app, port, ...(host ? { host } : {}) });
  return {
    app,
    url: server.url,
    close: () => server.close(),
    open: () => {
      opened = true;
    },
  };
}
