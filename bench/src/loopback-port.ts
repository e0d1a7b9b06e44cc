/** A free loopback port for the bench's own servers (the services of the soak, its private Redis). */
import { createServer } from 'node:net';

/** A loopback port that is free right now (the kernel's pick, so it may be taken again before use). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}
