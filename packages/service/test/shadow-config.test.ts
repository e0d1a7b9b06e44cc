import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readShadowConfig } from '../src/config/shadow-config.ts';

const problemsOf = (env: NodeJS.ProcessEnv) => {
  const read = readShadowConfig(env, 'orders');
  return read.ok ? [] : read.problems;
};

describe('an agent’s shadow settings', () => {
  it('are off when none is set', () => {
    expect(readShadowConfig({ SUPERVISOR_SHADOW_SHARE: '1' }, 'orders')).toEqual({
      ok: true,
      config: undefined,
    });
  });

  it('read the candidate, the share (as a fraction or a percentage) and the defaults', () => {
    expect(
      readShadowConfig({ ORDERS_SHADOW_CANDIDATE: 'prompt-v2', ORDERS_SHADOW_SHARE: '25%' }, 'orders'),
    ).toEqual({
      ok: true,
      config: {
        candidate: 'prompt-v2',
        share: 0.25,
        model: undefined,
        instructions: undefined,
        retentionDays: 7,
        concurrency: 2,
        yieldAbove: 0.7,
      },
    });
  });

  it('read the candidate’s model and prompt file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shadow-config-'));
    const file = join(dir, 'prompt.md');
    writeFileSync(file, 'You help customers with their orders, briefly.');
    const read = readShadowConfig(
      {
        ORDERS_SHADOW_CANDIDATE: 'mini',
        ORDERS_SHADOW_SHARE: '1',
        ORDERS_SHADOW_MODEL: 'gpt-5-mini',
        ORDERS_SHADOW_OPENAI_API_KEY: 'sk-test-0123456789abcdefghijklmnop',
        ORDERS_SHADOW_INSTRUCTIONS_FILE: file,
      },
      'orders',
    );
    expect(read).toMatchObject({
      ok: true,
      config: {
        model: { kind: 'openai', model: 'gpt-5-mini', apiKey: 'sk-test-0123456789abcdefghijklmnop' },
        instructions: 'You help customers with their orders, briefly.',
      },
    });
  });

  it('name the variable and the fix when a needed setting is missing or wrong', () => {
    expect(problemsOf({ ORDERS_SHADOW_SHARE: '0.5' })).toEqual([
      expect.objectContaining({
        variable: 'ORDERS_SHADOW_CANDIDATE',
        message: expect.stringContaining('is required'),
      }),
    ]);
    expect(problemsOf({ ORDERS_SHADOW_CANDIDATE: 'v2' })).toEqual([
      expect.objectContaining({
        variable: 'ORDERS_SHADOW_SHARE',
        message: expect.stringContaining('e.g. 1 (all) or 10%'),
      }),
    ]);
    expect(problemsOf({ ORDERS_SHADOW_CANDIDATE: 'v2', ORDERS_SHADOW_SHARE: '150%' })).toEqual([
      expect.objectContaining({
        variable: 'ORDERS_SHADOW_SHARE',
        message: expect.stringContaining('not "150%"'),
      }),
    ]);
    expect(
      problemsOf({
        ORDERS_SHADOW_CANDIDATE: 'v2',
        ORDERS_SHADOW_SHARE: '1',
        ORDERS_SHADOW_RETENTION_DAYS: 'forever',
        ORDERS_SHADOW_CONCURRENCY: '0',
        ORDERS_SHADOW_YIELD_ABOVE: '70%',
        ORDERS_SHADOW_INSTRUCTIONS_FILE: '/nonexistent/prompt.md',
      }).map((problem) => problem.variable),
    ).toEqual([
      'ORDERS_SHADOW_INSTRUCTIONS_FILE',
      'ORDERS_SHADOW_RETENTION_DAYS',
      'ORDERS_SHADOW_CONCURRENCY',
      'ORDERS_SHADOW_YIELD_ABOVE',
    ]);
    expect(
      readShadowConfig(
        { ORDERS_SHADOW_CANDIDATE: 'v2', ORDERS_SHADOW_SHARE: '1', ORDERS_SHADOW_YIELD_ABOVE: '1' },
        'orders',
      ),
    ).toMatchObject({ ok: true, config: { yieldAbove: 1 } });
  });

  it('refuse a variable under the shadow prefix that is not a setting (a typo does not leave it off)', () => {
    expect(
      problemsOf({ ORDERS_SHADOW_CANDIDATE: 'v2', ORDERS_SHADOW_SHARE: '1', ORDERS_SHADOW_SHAER: '1' }),
    ).toEqual([
      expect.objectContaining({
        variable: 'ORDERS_SHADOW_SHAER',
        message: expect.stringContaining('is not a shadow setting'),
      }),
    ]);
  });

  it('refuse a shadow model without a key or a base URL, as the live model would be', () => {
    expect(
      problemsOf({
        ORDERS_SHADOW_CANDIDATE: 'v2',
        ORDERS_SHADOW_SHARE: '1',
        ORDERS_SHADOW_MODEL: 'gpt-5-mini',
      }),
    ).toEqual([expect.objectContaining({ variable: 'OPENAI_API_KEY' })]);
  });
});
