/**
 * The customer-service shop as a team: what `switchboard dev`, `seed` and `eval` and the demo run.
 * The launcher loads this module at run time (`--team`, or this one in the checkout by default).
 */
import { fileURLToPath } from 'node:url';
import { COMMS_WORKER } from '@switchboard/comms/setup';
import {
  isCustomerServiceError,
  RedisShopStore,
  SHOP_SUPERVISOR,
  seedShop,
} from '@switchboard/customer-service';
import { customerFootprints } from '@switchboard/customer-service/system';
import { INVENTORY_WORKER } from '@switchboard/inventory/setup';
import { ORDERS_WORKER } from '@switchboard/orders/setup';
import { startTeamOnRedis } from '@switchboard/service';
import {
  defineSupervisor,
  defineTeam,
  type InProcessTeam,
  type Team,
  type TeamInProcessOptions,
  type TeamSeedOptions,
  type TeamSeedResult,
} from '@switchboard/team';
import { startTeamInMemory } from './in-process-team.ts';
import { SHOP_USERS } from './shop-users.ts';

/** The file a service's process runs: its app's `./main` export. */
const mainOf = (app: string) => fileURLToPath(import.meta.resolve(`${app}/main`));

/** Loads the shop fixture (the bundled one, or `data`) into the Redis the services read. */
async function seed({ redis, namespace, data, reset = false }: TeamSeedOptions): Promise<TeamSeedResult> {
  try {
    const result = await seedShop({
      store: new RedisShopStore({ redis, prefix: namespace }),
      ...(data === undefined ? {} : { fixture: data }),
      reset,
    });
    return {
      kind: 'seeded',
      what: 'the shop',
      summary: `${result.customers} customers, ${result.products} products, ${result.orders} orders, ${result.refunds} refunds; ${result.inserted} records were new`,
      counts: { ...result },
    };
  } catch (error) {
    if (isCustomerServiceError(error) && error.code === 'INVALID_FIXTURE')
      return { kind: 'invalid', message: error.message };
    throw error;
  }
}

/**
 * The customer-service team: three workers and the supervisor, on the bundled shop. In one process
 * it runs on Redis as the platform runs any team (seeded by `seed`), or without Redis on a shop in
 * memory (`startTeamInMemory`).
 */
const team: Team = defineTeam({
  title: 'customer-service system',
  workers: [ORDERS_WORKER, INVENTORY_WORKER, COMMS_WORKER],
  supervisor: defineSupervisor({ ...SHOP_SUPERVISOR, port: 4100, entry: mainOf('@switchboard/supervisor') }),
  users: SHOP_USERS,
  seed,
  startInProcess: startInProcessTeam,
  evals: { cases: fileURLToPath(new URL('../../evals/', import.meta.url)), users: customerFootprints },
  tryCommands: (access) => [
    'switchboard ask "Where is my order A10086 and when will it arrive?"',
    'switchboard ask "Please refund order A10086, the kettle arrived broken."',
    'switchboard approvals list',
    `switchboard ask --as C002 "Where is my order A10087?"   (you are customer ${access.userId}; --as acts as another)`,
    'switchboard trace last',
  ],
});
export default team;

/**
 * The whole shop in this process. With `redis`, the way the platform runs any team
 * (`startTeamOnRedis`: every service's own setup served by `runAgentService`, delegating over the queue
 * binding, the shop seeded by `seed`); without it, on a shop in memory over loopback HTTP
 * (`startTeamInMemory`).
 */
export function startInProcessTeam(options: TeamInProcessOptions): Promise<InProcessTeam> {
  return options.redis
    ? startTeamOnRedis(team, { ...options, redis: options.redis })
    : startTeamInMemory(team, options);
}
