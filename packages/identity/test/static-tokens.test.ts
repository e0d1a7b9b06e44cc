import { describe, expect, it } from 'vitest';
import { staticTokenAuthenticator, staticTokenProblems } from '../src/index.ts';

const CUSTOMER = 'cust-token-0123456789';
const OPERATOR = 'oper-token-0123456789';
const SERVICE = 'serv-token-0123456789';

describe('static tokens', () => {
  it('gives each caller the kind of the list its token is in, never one from its name', async () => {
    const authenticate = staticTokenAuthenticator({
      // A customer who calls themselves "operator" is still a customer.
      customers: { [CUSTOMER]: 'operator' },
      operators: { [OPERATOR]: 'ada' },
      services: { [SERVICE]: 'supervisor' },
    });
    expect(await authenticate({ authorization: `Bearer ${CUSTOMER}` })).toEqual({
      id: 'operator',
      kind: 'customer',
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
    for (const authorization of [undefined, '', `Bearer ${CUSTOMER}x`, CUSTOMER, `Basic ${CUSTOMER}`]) {
      expect(await authenticate({ authorization })).toBeUndefined();
    }
  });

  it('refuses names that collide across kinds, reserved names and a token in two lists, naming each', () => {
    expect(
      staticTokenProblems({
        customers: { [CUSTOMER]: 'ada', 'cust-token-abcdefghij': 'system' },
        operators: { [OPERATOR]: 'ada', [SERVICE]: 'bob' },
        services: { [SERVICE]: 'orders' },
      }),
    ).toEqual([
      'customers: "system" is a reserved name; pick another id',
      'one token is listed for both operators and services; give each its own',
      '"ada" is the id of a customer and of a operator: a name must not stand for two kinds of caller; rename one',
    ]);
    expect(() => staticTokenAuthenticator({ operators: { [OPERATOR]: 'switchboard-service' } })).toThrow(
      /The static tokens are not valid: operators: "switchboard-service" is a reserved name/,
    );
    expect(staticTokenProblems({ customers: { 'has space': 'C001' } })[0]).toBe(
      'customers.C001: its token must be letters, digits or -._~+/ (as sent after "Bearer ")',
    );
  });
});
