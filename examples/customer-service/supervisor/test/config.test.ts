import { randomBytes } from 'node:crypto';
import { ConfigError } from '@switchboard/config';
import { generateServiceKey } from '@switchboard/identity';
import { describe, expect, it } from 'vitest';
import { loadSupervisorConfig } from '../src/config.ts';

const { privateKey, publicKey } = generateServiceKey({ service: 'supervisor', label: 'test' });
const env = {
  SWITCHBOARD_SERVICE_KEY: JSON.stringify(privateKey),
  SWITCHBOARD_TRUSTED_KEYS: JSON.stringify({ keys: [publicKey] }),
  SWITCHBOARD_USER_TOKENS: `${randomBytes(24).toString('hex')}=alice`,
  SWITCHBOARD_OPERATOR_TOKENS: `${randomBytes(24).toString('hex')}=olivia`,
};

describe('the supervisor’s configuration', () => {
  it('accepts workers’ cards whatever their signature by default, and refuses unsigned ones when told to', () => {
    expect(loadSupervisorConfig(env).peerCards).toBe('any');
    expect(loadSupervisorConfig({ ...env, SWITCHBOARD_PEER_CARDS: ' signed ' }).peerCards).toBe('signed');
    let error: unknown;
    try {
      loadSupervisorConfig({ ...env, SWITCHBOARD_PEER_CARDS: 'strict' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      {
        variable: 'SWITCHBOARD_PEER_CARDS',
        message: expect.stringMatching(/^must be any \(.*\) or signed \(refuse it\), not "strict"$/),
      },
    ]);
  });
});
