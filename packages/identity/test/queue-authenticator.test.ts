import { MemoryLogger } from '@switchboard/agent/testing';
import { describe, expect, it } from 'vitest';
import { type QueuedCredentials, queueAuthenticator, staticTokenAuthenticator } from '../src/index.ts';

const USER = 'user-token-0123456789';
const SERVICE = 'serv-token-0123456789';

describe('the queue authenticator', () => {
  const logger = new MemoryLogger();
  const authenticate = queueAuthenticator({
    authenticate: staticTokenAuthenticator({
      customers: { [USER]: 'ada' },
      services: { [SERVICE]: 'supervisor' },
    }),
    logger,
  });
  const job = (authorization?: string): QueuedCredentials => ({
    serviceParameters: authorization ? { authorization } : {},
    request: '{"jsonrpc":"2.0"}',
    jobId: 'job-1',
  });

  it('serves a service, as the principal its credentials name', async () => {
    const user = await authenticate(job(`Bearer ${SERVICE}`));
    expect(user?.principal).toMatchObject({ id: 'supervisor', kind: 'service' });
  });

  it("refuses a user's own token, unknown credentials and none, logging why but never the token", async () => {
    expect(await authenticate(job(`Bearer ${USER}`))).toBeUndefined();
    expect(await authenticate(job('Bearer not-a-token-at-all'))).toBeUndefined();
    expect(await authenticate(job())).toBeUndefined();
    expect(logger.entries.map((entry) => entry.fields?.reason)).toEqual([
      'not a service, nor a request a service relayed',
      'credentials not accepted',
      'no authorization',
    ]);
    expect(JSON.stringify(logger.entries)).not.toContain(USER);
  });
});
