import { Cluster, type ClusterNode, Redis } from 'ioredis';
import { RedisConnectionError } from './errors.ts';

/**
 * A connection to Redis: one node (`Redis`) or a Redis Cluster (`Cluster`). Every Switchboard store,
 * queue and stream takes either; their keys carry one hash tag per agent, so each command and script
 * touches one slot.
 */
export type RedisConnection = Redis | Cluster;

/** Where Redis is and how to log in to it: one node by URL, or a cluster by its startup nodes. */
export interface RedisConnectionOptions {
  /**
   * One Redis node: `redis://[user:password@]host:port[/db]`, or `rediss://` for TLS. The user and
   * password may ride in the URL or come from `username` / `password`.
   */
  url?: string;
  /**
   * A Redis Cluster instead of `url`: some of its nodes (any will do, the rest are discovered), as
   * `host:port` entries separated by commas (`10.0.0.1:6379,10.0.0.2:6379`) or as a list.
   */
  clusterNodes?: string | ClusterNode[];
  /** Connect with TLS (default: only for a `rediss://` URL). */
  tls?: boolean;
  /**
   * The certificate authorities (PEM) a TLS server's certificate must chain to, for a Redis whose
   * certificate a private CA signed; default Node's trusted roots (and `NODE_EXTRA_CA_CERTS`).
   */
  tlsCa?: string;
  /** ACL user (Redis 6+); default `default`. */
  username?: string;
  password?: string;
  /** Shown by `CLIENT LIST`, e.g. the service's name. */
  connectionName?: string;
  /** Connect on the first command or an explicit `connect()` (default false: connect now). */
  lazyConnect?: boolean;
  /**
   * Reconnect and wait through outages (default true). False for a probe: a command fails at once
   * when Redis does not answer.
   */
  retry?: boolean;
  /** Longest a connection attempt may take, in ms (default ioredis's 10 000). */
  connectTimeoutMs?: number;
  /**
   * ioredis auto-pipelining (default false): commands issued in the same event-loop turn go out in
   * one write. Blocking commands (`BZPOPMIN`, `XREAD … BLOCK`, …) are never pipelined, so the
   * duplicates BullMQ and the event followers make of the connection block as before.
   */
  autoPipelining?: boolean;
}

/** Commands that may block: auto-pipelining leaves them alone (one would hold up the batch). */
const BLOCKING_COMMANDS = [
  'blpop',
  'brpop',
  'brpoplpush',
  'blmove',
  'blmpop',
  'bzpopmin',
  'bzpopmax',
  'bzmpop',
  'xread',
  'xreadgroup',
  'wait',
];

/** How long a command on a Redis Cluster waits for a failover before it fails. */
const FAILOVER_WAIT_MS = 30_000;
const FAILOVER_RETRY_MS = 200;

/**
 * Makes the Redis connection: the one place a Redis client is created, for a single node or a
 * Redis Cluster alike. Commands wait through a reconnect (BullMQ needs `maxRetriesPerRequest: null`)
 * and, on a cluster, through a failover of up to 30 s; a cluster reads and writes
 * on masters only.
 *
 * @example
 * const redis = createRedisConnection({ clusterNodes: '10.0.0.1:6379,10.0.0.2:6379', tls: true, username: 'switchboard', password });
 */
export function createRedisConnection(
  options: RedisConnectionOptions & { url: string; clusterNodes?: undefined },
): Redis;
export function createRedisConnection(
  options: RedisConnectionOptions & { clusterNodes: string | ClusterNode[]; url?: undefined },
): Cluster;
export function createRedisConnection(options: RedisConnectionOptions): RedisConnection;
export function createRedisConnection({
  url,
  clusterNodes,
  tls,
  tlsCa,
  username,
  password,
  connectionName,
  lazyConnect = false,
  retry = true,
  connectTimeoutMs,
  autoPipelining = false,
}: RedisConnectionOptions): RedisConnection {
  const hasNodes = clusterNodes !== undefined && clusterNodes !== '';
  if ((url === undefined || url === '') === !hasNodes) {
    throw new RedisConnectionError('INVALID_OPTIONS', {
      message: hasNodes
        ? 'Pass either url (one Redis node) or clusterNodes (a Redis Cluster), not both.'
        : 'Pass url (one Redis node, e.g. "redis://127.0.0.1:6379") or clusterNodes (a Redis Cluster, e.g. "10.0.0.1:6379,10.0.0.2:6379").',
    });
  }
  const secure = tls === true || (!hasNodes && String(url).startsWith('rediss://'));
  if (tlsCa !== undefined && !secure) {
    throw new RedisConnectionError('INVALID_OPTIONS', {
      message:
        'tlsCa is given but the connection is not TLS: pass tls: true (or a rediss:// URL), or leave tlsCa out.',
    });
  }
  const tlsOptions = tlsCa === undefined ? {} : { ca: tlsCa };
  const login = {
    ...(username === undefined ? {} : { username }),
    ...(password === undefined ? {} : { password }),
  };
  const common = {
    ...login,
    ...(retry ? { maxRetriesPerRequest: null } : { maxRetriesPerRequest: 0, retryStrategy: () => null }),
    ...(connectTimeoutMs === undefined ? {} : { connectTimeout: connectTimeoutMs }),
    ...(connectionName === undefined ? {} : { connectionName }),
  };
  const pipelining = autoPipelining
    ? { enableAutoPipelining: true, autoPipeliningIgnoredCommands: BLOCKING_COMMANDS }
    : {};
  if (hasNodes) {
    const nodes = typeof clusterNodes === 'string' ? parseClusterNodes(clusterNodes) : clusterNodes;
    return new Cluster(nodes, {
      lazyConnect,
      ...pipelining,
      // Through a failover (a replica is promoted after cluster-node-timeout, 15 s by default) a command
      // is redirected and retried every 200 ms for up to FAILOVER_WAIT_MS instead of failing in ~2 s.
      retryDelayOnFailover: FAILOVER_RETRY_MS,
      retryDelayOnClusterDown: FAILOVER_RETRY_MS,
      retryDelayOnTryAgain: FAILOVER_RETRY_MS,
      maxRedirections: Math.ceil(FAILOVER_WAIT_MS / FAILOVER_RETRY_MS),
      ...(retry ? {} : { clusterRetryStrategy: () => null }),
      scaleReads: 'master',
      redisOptions: { ...common, ...(secure ? { tls: tlsOptions } : {}) },
    });
  }
  const target = String(url);
  if (!/^rediss?:\/\//.test(target)) {
    throw new RedisConnectionError('INVALID_OPTIONS', {
      message: `Redis URL "${redactUrl(target)}" must start with redis:// or rediss:// (TLS), e.g. "redis://127.0.0.1:6379".`,
    });
  }
  return new Redis(target, { ...common, ...pipelining, lazyConnect, ...(secure ? { tls: tlsOptions } : {}) });
}

/**
 * Reads a list of cluster nodes, `host:port` separated by commas (IPv6 in brackets: `[::1]:7000`).
 * Throws naming the entry that is not one.
 */
export function parseClusterNodes(text: string): ClusterNode[] {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) {
    throw new RedisConnectionError('INVALID_OPTIONS', {
      message:
        'The cluster node list is empty; give host:port entries separated by commas, e.g. "10.0.0.1:6379,10.0.0.2:6379".',
    });
  }
  return entries.map((entry) => {
    const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry);
    const port = Number(match?.[2]);
    if (!match?.[1] || !(port >= 1 && port <= 65_535)) {
      throw new RedisConnectionError('INVALID_OPTIONS', {
        message: `Cluster node "${entry}" is not host:port (a port from 1 to 65535, no scheme, IPv6 in brackets); write e.g. "10.0.0.1:6379,10.0.0.2:6379".`,
      });
    }
    return { host: match[1].replace(/^\[|\]$/g, ''), port };
  });
}

/** True for a Redis Cluster connection. */
export function isCluster(redis: RedisConnection): redis is Cluster {
  return redis.isCluster;
}

/**
 * A second connection to the same Redis, with the same login and TLS, for what must not share one:
 * a blocking read (`XREAD BLOCK`) or a subscriber.
 */
export function duplicateConnection(redis: RedisConnection, connectionName?: string): RedisConnection {
  const named = connectionName === undefined ? {} : { connectionName };
  if (isCluster(redis)) {
    return redis.duplicate(undefined, {
      redisOptions: { ...redis.options.redisOptions, maxRetriesPerRequest: null, ...named },
    });
  }
  return redis.duplicate({ maxRetriesPerRequest: null, ...named });
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

/**
 * The keys matching `match`, a batch at a time. On a Redis Cluster it scans every master (`SCAN`
 * reads one node only), so a pattern finds its keys wherever their slot lives.
 *
 * @example
 * for await (const keys of scanKeys(redis, '{demo}:orders:*')) if (keys.length > 0) await redis.del(...keys);
 */
export async function* scanKeys(
  redis: RedisConnection,
  match: string,
  count = 1000,
): AsyncGenerator<string[], void, undefined> {
  // A cluster knows its masters once connected (a lazy one has not connected yet).
  if (isCluster(redis) && redis.status !== 'ready') await redis.ping();
  const nodes: Redis[] = isCluster(redis) ? redis.nodes('master') : [redis];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', match, 'COUNT', count);
      cursor = next;
      yield keys;
    } while (cursor !== '0');
  }
}
