import { readFile } from 'node:fs/promises';
import { createRedisConnection, type RedisConnectionOptions } from '@switchboard/redis';
import { EXIT, type Output } from '../io/output.ts';
import { redisAnswers } from '../system/local-redis.ts';
import { describeRedis } from '../system/redis-target.ts';
import { loadTeam } from '../team/load-team.ts';

/** Options of {@link seedCommand}. */
export interface SeedCommandOptions {
  /** `--team`: the team to seed (a module or its folder; default: the bundled example). */
  team?: string | undefined;
  /** One Redis node by URL, or a Redis Cluster (`clusterNodes`), with its login. */
  redis: RedisConnectionOptions;
  namespace: string;
  /** A data file (JSON) to load instead of the team's bundled data. */
  file: string | undefined;
  reset: boolean;
  json: boolean;
  output: Output;
}

/** `switchboard seed`: loads the team's data (or a file) into Redis, where every replica reads it. */
export async function seedCommand({
  team: teamPath,
  redis: target,
  namespace,
  file,
  reset,
  json,
  output,
}: SeedCommandOptions): Promise<number> {
  const { team } = await loadTeam({ team: teamPath });
  if (!team.seed) {
    output.err(`The ${team.title} has no data to seed: its team module defines no seed.`);
    return EXIT.usage;
  }
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
    const result = await team.seed({
      redis,
      namespace,
      ...(fixture === undefined ? {} : { data: fixture }),
      reset,
    });
    if (result.kind === 'invalid') {
      output.err(`The fixture is not valid: ${result.message}`);
      return EXIT.usage;
    }
    if (json) output.out(JSON.stringify(result.counts));
    else output.out(`Seeded ${result.what} in ${where} (namespace ${namespace}): ${result.summary}.`);
    return EXIT.ok;
  } catch (error) {
    output.err(`Seeding failed: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.problems;
  } finally {
    await redis.quit();
  }
}
