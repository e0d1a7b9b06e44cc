import { describe, expect, it } from 'vitest';
import { staticTokenAuthenticator, staticTokenProblems } from '../src/index.ts';

const USER = 'user-token-0123456789';
const OPERATOR = 'oper-token-0123456789';
const SERVICE = 'serv-token-0123456789';

describe('static tokens', () => {
  it('gives each caller the kind of the list its token is in, never one from its name', async () => {
    const authenticate = staticTokenAuthenticator({
      // A user who calls themselves "operator" is still a user.
      users: { [USER]: 'operator' },
      operators: { [OPERATOR]: 'ada' },
      services: { [SERVICE]: 'supervisor' },
    });
    expect(await authenticate({ authorization: `Bearer ${USER}` })).toEqual({
      id: 'operator',
      kind: 'user',
      roles: [],
      via: [],
    });
    expect(await authenticate({ authorization: `Bearer ${OPERATOR}` })).toMatchObject({
      id: 'ada',
      kind: 'operator',
    });
    expect(await authenticate({ authorization: `Bearer ${SERVICE}` })).toMatchObject({
      id: 'supervisor',
      kind: 'service',
    });
    for (const authorization of [undefined, '', `Bearer ${USER}x`, USER, `Basic ${USER}`]) {
      expect(await authenticate({ authorization })).toBeUndefined();
    }
  });

  it('refuses names that collide across kinds, reserved names and a token in two lists, naming each', () => {
    expect(
      staticTokenProblems({
        users: { [USER]: 'ada', 'user-token-abcdefghij': 'system' },
        operators: { [OPERATOR]: 'ada', [SERVICE]: 'bob' },
        services: { [SERVICE]: 'orders' },
      }),
    ).toEqual([
      'users: "system" is a reserved name; pick another id',
      'one token is listed for both operators and services; give each its own',
      '"ada" is the id of a user and of a operator: a name must not stand for two kinds of caller; rename one',
    ]);
    expect(() => staticTokenAuthenticator({ operators: { [OPERATOR]: 'switchboard-service' } })).toThrow(
      /The static tokens are not valid: operators: "switchboard-service" is a reserved name/,
    );
    expect(staticTokenProblems({ users: { 'has space': 'u-1' } })[0]).toBe(
      'users.u-1: its token must be letters, digits or -._~+/ (as sent after "Bearer ")',
    );
  });

  it('still reads the 0.2 list of end users as users, and refuses one token given two ids across both', async () => {
    const authenticate = staticTokenAuthenticator({
      customers: { [USER]: 'C001' },
      users: { 'user-token-abcdefghij': 'traveller-1' },
    });
    expect(await authenticate({ authorization: `Bearer ${USER}` })).toMatchObject({
      id: 'C001',
      kind: 'user',
    });
    expect(await authenticate({ authorization: 'Bearer user-token-abcdefghij' })).toMatchObject({
      id: 'traveller-1',
      kind: 'user',
    });
    expect(staticTokenProblems({ customers: { [USER]: 'C001' }, users: { [USER]: 'C001' } })).toEqual([]);
    expect(staticTokenProblems({ customers: { [USER]: 'C001' }, users: { [USER]: 'C002' } })).toEqual([
      'one token is listed in users as "C002" and in the deprecated customers as "C001"; keep only users',
    ]);
  });
});
