import * as delegate from '@switchboard/delegate';
import * as observe from '@switchboard/delegate/observe';
import * as host from '@switchboard/host';
import * as hostApprovals from '@switchboard/host/approvals';
import * as hostHttp from '@switchboard/host/http';
import * as hostRedis from '@switchboard/host/redis';
import * as identity from '@switchboard/identity';
import * as protocol from '@switchboard/protocol';
import * as redis from '@switchboard/redis';
import * as shadow from '@switchboard/shadow';
import { describe, expect, it } from 'vitest';
import * as a2aApprovals from '../src/approvals.ts';
import * as a2aDelegate from '../src/delegate.ts';
import * as a2aDelivery from '../src/delivery.ts';
import * as a2aHttp from '../src/http.ts';
import * as a2a from '../src/index.ts';
import * as a2aObserve from '../src/observe.ts';
import * as a2aRedis from '../src/redis.ts';
import * as a2aRegistry from '../src/registry.ts';
import * as a2aShadow from '../src/shadow.ts';

/** Every value a module exports, by name. */
const values = (module: object) => Object.entries(module) as [string, unknown][];

describe('the names of 0.1, kept for one release', () => {
  const homes = [
    host,
    hostApprovals,
    hostHttp,
    hostRedis,
    identity,
    delegate,
    observe,
    protocol,
    redis,
    shadow,
  ];
  const entries = {
    '@switchboard/a2a': a2a,
    '/approvals': a2aApprovals,
    '/delegate': a2aDelegate,
    '/delivery': a2aDelivery,
    '/http': a2aHttp,
    '/observe': a2aObserve,
    '/redis': a2aRedis,
    '/registry': a2aRegistry,
    '/shadow': a2aShadow,
  };

  it.each(Object.entries(entries))(
    '%s exports each of them as the very value of its new home',
    (_entry, module) => {
      const names = values(module);
      expect(names.length).toBeGreaterThan(0);
      for (const [name, value] of names) {
        const home = homes.find((candidate) => Object.values(candidate).includes(value));
        expect(home, `${name} is exported by a new home`).toBeDefined();
      }
    },
  );

  it('keeps what 0.1 code calls: hostAgent, createHostedAgent, the error class, the Redis stores', () => {
    expect(a2a.hostAgent).toBe(host.hostAgent);
    expect(a2a.createHostedAgent).toBe(host.createAgentHandler);
    expect(a2a.A2aError).toBe(host.HostError);
    expect(a2aRedis.RedisTaskStore).toBe(hostRedis.RedisTaskStore);
    expect(a2aRedis.createRedisConnection).toBe(redis.createRedisConnection);
    expect(a2aDelegate.delegationTools).toBe(delegate.delegationTools);
    expect(a2aShadow.ShadowTap).toBe(shadow.ShadowTap);
  });
});
