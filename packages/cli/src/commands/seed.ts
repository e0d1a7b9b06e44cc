import { readFile } from 'node:fs/promises';
import { RedisShopStore, seedShop } from '@switchboard/customer-service';
import { createRedisConnection, type RedisConnectionOptions } from '@switchboard/redis';
import { EXIT, type Output } from '../io/output.ts';
import { redisAnswers } from '../system/local-redis.ts';
import { describeRedis } from '../system/redis-target.ts';

/** Options of {@link seedCommand}. */
export interface SeedCommandOptions {
  /** One Redis node by URL, or a Redis Cluster (`clusterNodes`), with its login. */
  redis: RedisConnectionOptions;
  namespace: string;
  /** A fixture file to load instead of the bundled shop. */
  file: string | undefined;
  reset: boolean;
  json: boolean;
  output: Output;
}

/** `switchboard seed`: loads the shop fixture (or a file) into Redis, where every replica reads it. */
export async function seedCommand({
  redis: target,
  namespace,
  file,
  reset,
  json,
  output,
}: SeedCommandOptions): Promise<number> {
  const where = describeRedis(target);
  if (!(await redisAnswers(target, 5_000))) {
    output.err(
      `Redis does not answer at ${where}. Start it (or "switchboard dev"), or set REDIS_URL (or REDIS_CLUSTER_NODES).`,
    );
    return EXIT.problems;
  }
  let fixture: unknown;
  if (file) {
    try {
      fixture = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      output.err(
        `Cannot read the fixture ${file}: ${error instanceof Error ? error.message : String(error)}.`,
      );
      return EXIT.usage;
    }
  }
  const redis = createRedisConnection(target);
  try {
    const result = await seedShop({
      store: new RedisShopStore({ redis, prefix: namespace }),
      ...(fixture === undefined ? {} : { fixture }),
      reset,
    });
    if (json) output.out(JSON.stringify(result));
    else
      output.out(
        `Seeded the shop in ${where} (namespace ${namespace}): ${result.customers} customers, ${result.products} products, ${result.orders} orders, ${result.refunds} refunds; ${result.inserted} records were new.`,
      );
    return EXIT.ok;
  } catch (error) {
    const code = (error as { code?: string }).code;
    output.err(
      code === 'INVALID_FIXTURE'
        ? `The fixture is not valid: ${(error as Error).message}`
        : `Seeding failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return code === 'INVALID_FIXTURE' ? EXIT.usage : EXIT.problems;
  } finally {
    await redis.quit();
  }
}
