/** The environment a test service process is started with. */
export interface ServiceEnv {
  redisUrl: string;
  prefix: string;
  otlpEndpoint: string | undefined;
  spanFile: string | undefined;
}

/** Reads the service's environment; throws naming the variable that is missing. */
export function serviceEnv(env: NodeJS.ProcessEnv): ServiceEnv {
  const prefix = env.E2E_PREFIX;
  if (!prefix) throw new Error('E2E_PREFIX is required: the Redis key prefix of this test run');
  return {
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    prefix,
    otlpEndpoint: env.E2E_OTLP_ENDPOINT || undefined,
    spanFile: env.E2E_SPAN_FILE || undefined,
  };
}

/** The orders agent's queue, shared by both services. */
export const ordersQueue = (prefix: string) => ({ queue: 'a2a.orders', prefix });
