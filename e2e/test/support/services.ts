import { fileURLToPath } from 'node:url';
import { type GroupProcess, spawnGroup } from '@switchboard/test-processes';

const e2eDir = fileURLToPath(new URL('../..', import.meta.url));

/** How a test stops a service: SIGTERM, and 30 s to flush and exit before SIGKILL to its process group. */
export const SERVICE_STOP = { graceMs: 30_000 };

/**
 * Starts `src/<script>` with node (which strips the types itself) and waits for its "ready" line (up
 * to `readyMs`); when it is not ready, stops it and rejects with its last lines. It leads its own
 * process group and has an IPC channel to this process: it stops when the test's process ends,
 * however that ends. Stop it with `stop(SERVICE_STOP)`.
 */
export async function startService(
  script: string,
  env: Record<string, string>,
  { readyMs = 45_000 }: { readyMs?: number } = {},
): Promise<GroupProcess> {
  const service = spawnGroup({
    args: [`src/${script}`],
    cwd: e2eDir,
    env: { ...process.env, ...env },
    ipc: true,
    name: script,
  });
  try {
    await service.waitForLine(/^ready/, { timeoutMs: readyMs, describe: 'its ready line' });
  } catch (error) {
    await service.stop(SERVICE_STOP);
    throw error;
  }
  return service;
}
