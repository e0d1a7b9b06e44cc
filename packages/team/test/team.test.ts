import { defineAgent } from '@switchboard/agent';
import { generateServiceKey, readServiceKeySet } from '@switchboard/identity';
import { describe, expect, it } from 'vitest';
import {
  defineSupervisor,
  defineTeam,
  defineWorker,
  serviceKeyEnvironment,
  type TeamAccess,
  teamEnvironment,
  teamServices,
  tokensToIds,
  userTokens,
} from '../src/index.ts';

const worker = (name: string, port?: number) =>
  defineWorker({
    name,
    ...(port === undefined ? {} : { port }),
    agent: defineAgent({ name, instructions: `You are ${name}.` }),
  });
const team = () => ({
  title: 'travel desk',
  workers: [worker('flights'), worker('weather')],
  supervisor: defineSupervisor({ description: 'The travel desk.', instructions: 'Delegate.' }),
  users: ['traveller-1', 'traveller-2'],
});

describe('defineTeam', () => {
  it('keeps a valid team, its workers started first on the ports after the supervisor’s, the first user the default', () => {
    const defined = defineTeam(team());
    expect(teamServices(defined).map((s) => [s.name, s.port])).toEqual([
      ['flights', 4101],
      ['weather', 4102],
      ['supervisor', 4100],
    ]);
    expect(defined.users).toEqual({ ids: ['traveller-1', 'traveller-2'], defaultUser: 'traveller-1' });
    expect(defined.startInProcess).toBeUndefined();
  });

  it('says everything that is wrong with a team, at once', () => {
    const bad = {
      ...team(),
      workers: [worker('Flights', 4101), { ...worker('weather', 70_000), entry: 'src/main.ts' }],
      users: { ids: ['traveller-1'], defaultUser: 'someone' },
    };
    expect(() => defineTeam(bad)).toThrow(
      /"Flights" must be lower-case.*weather: entry must be an absolute path.*weather: port must be a whole number.*defaultUser "someone" must be one of users.ids/,
    );
    expect(() => defineTeam({ ...team(), workers: [], users: [] })).toThrow(
      /workers must name at least one worker.*users must name at least one user/,
    );
  });
});

describe("a running team's access", () => {
  let count = 0;
  const access: TeamAccess = {
    supervisorUrl: 'http://127.0.0.1:4100',
    ...userTokens(
      { ids: ['traveller-1', 'traveller-2'], defaultUser: 'traveller-2' },
      () => `tok-${++count}`,
    ),
    adminToken: 'ops-token',
    serviceKeys: { flights: generateServiceKey({ service: 'flights', label: 'test' }).privateKey },
    redisUrl: 'redis://127.0.0.1:6379',
    namespace: 'travel',
  };

  it('gives each user a token, the default user also as the token', () => {
    expect(Object.keys(access.users)).toEqual(['traveller-1', 'traveller-2']);
    expect(access.token).toBe(access.users['traveller-2']);
    expect(tokensToIds(access.users)[access.token]).toBe('traveller-2');
  });

  it("is what each service's environment holds, public keys only, its own key apart", () => {
    const env = teamEnvironment(access);
    expect(env.SWITCHBOARD_NAMESPACE).toBe('travel');
    expect(env.SWITCHBOARD_OPERATOR_TOKENS).toBe('ops-token=operator');
    const trusted = readServiceKeySet(JSON.parse(env.SWITCHBOARD_TRUSTED_KEYS ?? '{}'));
    expect(trusted.ok && trusted.keySet.keys).toHaveLength(1);
    expect(JSON.stringify(env)).not.toContain('"d"');
    expect(serviceKeyEnvironment(access, 'flights').SWITCHBOARD_SERVICE_KEY).toContain('"d"');
    expect(serviceKeyEnvironment(access, 'weather')).toEqual({});
  });
});
