// The one Redis seam: every Redis client of Switchboard is made here.
export type { RedisConnectionErrorCode } from './errors.ts';
export { isRedisConnectionError, REDIS_CONNECTION_ERRORS, RedisConnectionError } from './errors.ts';
export type { RedisConnection, RedisConnectionOptions } from './redis-connection.ts';
export {
  createRedisConnection,
  duplicateConnection,
  isCluster,
  parseClusterNodes,
  redactUrl,
  scanKeys,
} from './redis-connection.ts';
export { RedisScript } from './redis-script.ts';
