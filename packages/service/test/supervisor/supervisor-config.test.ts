import { randomBytes } from 'node:crypto';
import { ConfigError } from '@switchboard/config';
import { generateServiceKey } from '@switchboard/identity';
import { describe, expect, it } from 'vitest';
import { loadSupervisorConfig } from '../../src/supervisor/supervisor-config.ts';

const { privateKey, publicKey } = generateServiceKey({ service: 'supervisor', label: 'test' });
const env = {
  SWITCHBOARD_SERVICE_KEY: JSON.stringify(privateKey),
  SWITCHBOARD_TRUSTED_KEYS: JSON.stringify({ keys: [publicKey] }),
  SWITCHBOARD_USER_TOKENS: `${randomBytes(24).toString('hex')}=alice`,
  SWITCHBOARD_OPERATOR_TOKENS: `${randomBytes(24).toString('hex')}=olivia`,
};

describe('the supervisor’s configuration', () => {
  it('takes its workers from code, lets SWITCHBOARD_WORKERS override them, and asks for them when neither names any', () => {
    expect(loadSupervisorConfig(env, { workers: ['flights', 'weather'] }).workers).toEqual([
      'flights',
      'weather',
    ]);
    expect(
      loadSupervisorConfig({ ...env, SWITCHBOARD_WORKERS: ' flights , hotels' }, { workers: ['flights'] })
        .workers,
    ).toEqual(['flights', 'hotels']);
    let error: unknown;
    try {
      loadSupervisorConfig(env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      { variable: 'SWITCHBOARD_WORKERS', message: expect.stringMatching(/^is required: the workers/) },
    ]);
  });

  it('accepts workers’ cards whatever their signature by default, and refuses unsigned ones when told to', () => {
    expect(loadSupervisorConfig(env, { workers: ['weather'] }).peerCards).toBe('any');
    expect(
      loadSupervisorConfig({ ...env, SWITCHBOARD_PEER_CARDS: ' signed ' }, { workers: ['weather'] })
        .peerCards,
    ).toBe('signed');
    let error: unknown;
    try {
      loadSupervisorConfig({ ...env, SWITCHBOARD_PEER_CARDS: 'strict' }, { workers: ['weather'] });
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
