import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type GroupProcess, isRunning, spawnGroup } from '../src/index.ts';

const parentWithGrandchild = fileURLToPath(new URL('./support/parent-with-grandchild.ts', import.meta.url));
const started: GroupProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((child) => child.kill()));
});

/** `node -e <script>` in its own group, stopped after the test. */
function node(script: string, name = 'the script'): GroupProcess {
  const child = spawnGroup({ args: ['-e', script], name });
  started.push(child);
  return child;
}

describe('spawnGroup', () => {
  it.runIf(process.platform === 'linux')(
    'stop ends the child and the grandchild it started, with SIGKILL after the grace period when they ignore SIGTERM',
    async () => {
      const parent = spawnGroup({ args: [parentWithGrandchild], name: 'parent-with-grandchild' });
      started.push(parent);
      const grandchild = Number((await parent.waitForLine(/^grandchild (\d+)$/))[1]);
      expect(parent.pidsLeft().sort()).toEqual([parent.pid, grandchild].sort());

      expect(await parent.stop({ graceMs: 500 })).toBe('SIGKILL');
      expect([parent.pid, grandchild].filter(isRunning)).toEqual([]);
      expect(parent.pidsLeft()).toEqual([]);
      expect(() => parent.assertNoneLeft()).not.toThrow();
    },
  );

  it('assertNoneLeft names what of the group still runs', async () => {
    const parent = spawnGroup({ args: [parentWithGrandchild], name: 'parent-with-grandchild' });
    started.push(parent);
    const grandchild = Number((await parent.waitForLine(/^grandchild (\d+)$/))[1]);
    expect(() => parent.assertNoneLeft()).toThrow(
      new RegExp(`parent-with-grandchild left 2 processes of its group running:[\\s\\S]*${grandchild} `),
    );
  });

  it('stop resolves with how the child ended when it heeds SIGTERM', async () => {
    const child = node("setInterval(() => {}, 60_000); console.log('up');");
    await child.waitForLine(/^up$/);
    expect(await child.stop()).toBe('SIGTERM');
    child.assertNoneLeft();
  });

  it('waitForLine resolves with a line printed before it was called, from stdout or stderr', async () => {
    const child = node("console.error('port 4242'); setInterval(() => {}, 60_000);");
    await child.waitForLine(/^port/);
    expect((await child.waitForLine(/^port (\d+)$/))[1]).toBe('4242');
  });

  it('waitForLine, when the line does not come in time, says what was awaited and shows the last lines', async () => {
    const child = node(
      "for (let i = 1; i <= 50; i++) console.log('line ' + i); setInterval(() => {}, 60_000);",
      'the chatty script',
    );
    await child.waitForLine(/^line 50$/);
    const error = await child
      .waitForLine(/^ready/, { timeoutMs: 500, describe: 'its ready line' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    const { message } = error as Error;
    expect(message).toContain(
      'the chatty script did not print its ready line within 0.5 s; its last 40 lines:',
    );
    expect(message).toContain('\nline 11\n');
    expect(message.endsWith('\nline 50')).toBe(true);
    expect(message).not.toContain('\nline 10\n');
  });

  it('waitForLine rejects as soon as the child exits without the line, with its exit code and output', async () => {
    const child = node("console.error('Redis is not reachable'); process.exit(3);", 'the service');
    await expect(child.waitForLine(/^ready/, { describe: 'its ready line' })).rejects.toThrow(
      'the service exited (3) before it printed its ready line; its last line:\nRedis is not reachable',
    );
  });

  it('waitForExit resolves with the exit code, and stops a run that outlasts its deadline, saying so', async () => {
    expect(await node("console.log('done'); process.exit(4);").waitForExit()).toBe(4);
    const hung = node("console.log('working'); setInterval(() => {}, 60_000);", 'the hung run');
    await expect(hung.waitForExit({ timeoutMs: 500 })).rejects.toThrow(
      'the hung run did not finish within 0.5 s; its last line:\nworking',
    );
    expect(hung.pidsLeft()).toEqual([]);
  });

  it('refuses to start what is not there, naming it', () => {
    expect(() => spawnGroup({ command: '/nonexistent/redis-server', name: 'redis-server' })).toThrow(
      'redis-server did not start: is /nonexistent/redis-server there and executable?',
    );
  });
});
