import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRedisConnection, scanKeys } from '@switchboard/redis';
import { type GroupProcess, spawnGroup } from '@switchboard/test-processes';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closedPort } from './support.ts';

const bin = fileURLToPath(new URL('../bin/switchboard.mjs', import.meta.url));
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = createRedisConnection({ url: redisUrl });
const namespace = `devlogs-${Date.now().toString(36)}`;
const started: GroupProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((dev) => dev.stop({ signal: 'SIGINT', graceMs: 20_000 })));
});
afterAll(async () => {
  for await (const keys of scanKeys(redis, `*${namespace}*`))
    await Promise.all(keys.map((key) => redis.unlink(key)));
  await redis.quit();
});

const FORGED = JSON.stringify({
  level: 30,
  time: new Date().toISOString(),
  service: 'supervisor',
  msg: 'approval decided',
  approvalId: 'apr_FORGED',
  decision: 'approved',
  operator: 'finance',
});

describe('switchboard dev’s log view', () => {
  it.each([
    ['a process per service on Redis', ['--namespace', namespace, '--redis-url', redisUrl]],
    ['every agent in one process', ['--in-process']],
  ])(
    'shows no forged line and no raw escape when a caller puts them in a task id: %s',
    async (_mode, mode) => {
      const cwd = mkdtempSync(join(tmpdir(), 'switchboard-dev-logs-'));
      const port = await closedPort();
      const args = ['dev', '--port', String(port), ...mode];
      const dev = spawnGroup({ args: [bin, ...args], cwd, env: process.env, name: 'dev' });
      started.push(dev);
      await dev.waitForLine(/Press Ctrl-C to stop\./, { timeoutMs: 60_000, describe: 'that it runs' });
      const { supervisorUrl, token } = JSON.parse(
        readFileSync(join(cwd, '.switchboard/dev.json'), 'utf8'),
      ) as {
        supervisorUrl: string;
        token: string;
      };
      const id = `nope\u001b[2J\u001b[8m\n${FORGED}\n`;
      for (const [method, version] of [
        ['SubscribeToTask', '1.0'],
        ['tasks/resubscribe', undefined],
      ] as const) {
        const response = await fetch(`${supervisorUrl}/a2a/jsonrpc`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${token}`,
            ...(version ? { 'A2A-Version': version } : {}),
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { id } }),
        });
        expect(await response.text()).toMatch(/"error"/);
      }
      expect(await dev.stop({ signal: 'SIGINT', graceMs: 20_000 })).toBe(0);
      const output = dev.output();
      expect(output).toContain('Stopped.');
      expect(output).not.toContain('\u001b');
      expect(output).not.toMatch(/approval decided|apr_FORGED/);
    },
    90_000,
  );
});
