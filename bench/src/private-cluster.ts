/**
 * A Redis Cluster of the bench's own, for the soak's `--redis-cluster`: six `redis-server` on free
 * loopback ports (three masters, three replicas) made by `scripts/redis-cluster.sh`, the same script
 * as the tests' cluster stage. Stopped with `stop()`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const script = fileURLToPath(new URL('../../scripts/redis-cluster.sh', import.meta.url));
const run = promisify(execFile);

/** A running private cluster. */
export interface PrivateCluster {
  /** Its nodes as REDIS_CLUSTER_NODES takes them. */
  nodes: string;
  stop(): Promise<void>;
}

/** Starts the cluster and waits until every node reports cluster_state:ok and replicas are in sync. */
export async function startPrivateCluster(): Promise<PrivateCluster> {
  const parent = await mkdtemp(join(tmpdir(), 'switchboard-bench-cluster-'));
  const dir = join(parent, 'cluster');
  const { stdout } = await run('bash', [script, 'start', dir]);
  return {
    nodes: stdout.trim(),
    stop: async () => {
      await run('bash', [script, 'stop', dir]);
      await rm(parent, { recursive: true, force: true });
    },
  };
}
