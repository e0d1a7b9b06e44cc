import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../src/index.ts';

/** Listens on `port` at 127.0.0.1; rejects with EADDRINUSE when something already does. */
const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server));
  });

describe('freePort', () => {
  it('picks a port below the ephemeral range that a service can then listen on; with count, a block of them', async () => {
    const first = await freePort({ count: 4 });
    expect(first).toBeGreaterThanOrEqual(20_000);
    expect(first + 3).toBeLessThan(32_000);
    const servers = await Promise.all([0, 1, 2, 3].map((offset) => listen(first + offset)));
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('says how to fix a count it cannot serve', async () => {
    await expect(freePort({ count: 0 })).rejects.toThrow(
      'freePort: count must be a whole number from 1 to 100, not 0',
    );
  });
});
