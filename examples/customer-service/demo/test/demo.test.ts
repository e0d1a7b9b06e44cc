import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedisConnection } from '@switchboard/redis';
import { commandOf, freePort } from '@switchboard/test-processes';
import { afterAll, describe, expect, it } from 'vitest';
import { PORTS_PER_SYSTEM } from '../src/free-ports.ts';
import { runDemo, startDemo, stopDemo } from './support/demo-process.ts';

/**
 * The demo's own deadline: it then stops and says which story and command it had reached, with the
 * services' last log lines. Alone it takes under a minute; this leaves room for a busy machine.
 */
const DEMO_DEADLINE_MS = 180_000;
/** How long the test waits for the demo to exit: its deadline, and time to stop the system after it. */
const DEMO_EXIT_MS = DEMO_DEADLINE_MS + 60_000;
/** How long the quick runs (a wrong setting, a port taken) may take to exit. */
const QUICK_EXIT_MS = 45_000;
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const spanDir = mkdtempSync(join(tmpdir(), 'switchboard-demo-'));
afterAll(() => rmSync(spanDir, { recursive: true, force: true }));

/** The environment without any model, tracing or Switchboard setting of the machine running the test. */
const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !/^(SWITCHBOARD_|OPENAI_|OTEL_)|_MODEL$|_OPENAI_(API_KEY|BASE_URL)$/.test(key),
  ),
) as NodeJS.ProcessEnv;

/**
 * A port with the next three free too (the demo's supervisor and its three workers), below the
 * ephemeral range, so that no outgoing connection takes one before the demo's services listen.
 */
const freePortBlock = () => freePort({ count: PORTS_PER_SYSTEM });

/** Runs the demo as `pnpm demo` does, in a child process, on the clean environment plus `env`. */
const demo = (env: NodeJS.ProcessEnv, withinMs = QUICK_EXIT_MS) =>
  runDemo({ env: { ...cleanEnv, ...env }, withinMs });

async function keysOf(namespace: string): Promise<string[]> {
  const redis = createRedisConnection({ url: redisUrl });
  try {
    const found = await Promise.all(
      [`${namespace}:*`, `{${namespace}}:*`, `{${namespace}:*`].map((pattern) => redis.keys(pattern)),
    );
    return found.flat();
  } finally {
    redis.disconnect();
  }
}

describe('pnpm demo', () => {
  it(
    'boots the system, plays the six stories through the real CLI, stops it and exits 0',
    async () => {
      const namespace = `demo-test-${randomBytes(4).toString('hex')}`;
      const port = await freePortBlock();
      const { code, stdout, stderr, left } = await demo(
        {
          SWITCHBOARD_DEMO_PORT: String(port),
          SWITCHBOARD_DEMO_NAMESPACE: namespace,
          SWITCHBOARD_SPAN_FILE: join(spanDir, 'spans.jsonl'),
          SWITCHBOARD_DEMO_DEADLINE_MS: String(DEMO_DEADLINE_MS),
          REDIS_URL: redisUrl,
        },
        DEMO_EXIT_MS,
      );
      // On a failure or past its deadline the demo says where it was and shows the services' last log lines.
      expect(code, `${stderr}\n── what it printed before:\n${stdout.slice(-3_000)}`).toBe(0);
      expect(stderr).not.toContain('The demo failed');
      expect(left, 'processes the demo left running').toEqual([]);

      expect(stdout).toContain('System: one process per service, on Redis');
      expect(stdout).toContain(`http://127.0.0.1:${port}`);
      expect(stdout).toContain(
        'Model:  the offline planner (deterministic, no network, not an LLM), for every agent.',
      );

      // 1. Two tools for one order question.
      expect(stdout).toContain('$ switchboard ask "Where is my order A10086 and when will it arrive?"');
      expect(stdout).toMatch(/running get_order[\s\S]*running estimate_delivery/);
      expect(stdout).toContain('estimated delivery: 2026-12-01');
      const traceId = /^Trace: ([0-9a-f]{32})$/m.exec(stdout)?.[1];
      expect(traceId).toBeDefined();

      // 2. Stock, from the inventory agent.
      expect(stdout).toContain('$ switchboard ask "Is the blue kettle in stock?"');
      expect(stdout).toContain('The inventory agent answered:');
      expect(stdout).toContain('name: Blue Enamel Kettle, units in stock: 14, in stock: yes');

      // 3. A refund waits for an operator, runs once approved, and only once.
      expect(stdout).toContain('$ switchboard ask "Please refund order A10086, the kettle arrived broken."');
      const approvalId = /approvals approve (apr_\w+)/.exec(stdout)?.[1] ?? 'no approval id';
      expect(approvalId).toMatch(/^apr_/);
      expect(stdout).toContain('(input-required)');
      expect(stdout).toContain('$ switchboard approvals list');
      expect(stdout).toMatch(new RegExp(`${approvalId}\\s+orders\\s+Refund order A10086.*pending`));
      expect(stdout).toContain(
        `$ switchboard approvals approve ${approvalId} --reason "Photo of the broken kettle checked"`,
      );
      expect(stdout).toContain(`Approved ${approvalId}`);
      expect(stdout).toMatch(/refund_order \(order id: A10086\) → refunded: yes, amount: 59\.90 EUR/);
      expect(stdout).toContain(`Approval ${approvalId} is already approved by operator`);

      // 4. Another customer's order reads as one that does not exist; asked as its customer, it is there.
      expect(stdout).toContain('$ switchboard ask "Where is my order A10087?"');
      expect(stdout).toContain('There is no order A10087 on your account.');
      expect(stdout).toContain('$ switchboard ask --as C002 "Where is my order A10087?"');
      expect(stdout).toMatch(/get_order \(order id: A10087\) → status: processing.*ship to: Lyon, FR/);

      // 5. A malformed order id gets the format.
      expect(stdout).toContain('$ switchboard ask "Where is my order 12345?"');
      expect(stdout).toContain('the letter A followed by 5 digits');

      // 6. The trace of request 1, and how to see it in Jaeger.
      expect(stdout).toContain(`$ switchboard trace ${traceId}`);
      expect(stdout).toContain(`Trace ${traceId}:`);
      expect(stdout).toMatch(/└─ invoke_agent supervisor/);
      expect(stdout).toMatch(/execute_tool orders_order_status[\s\S]*invoke_agent orders/);
      expect(stdout).toContain('SWITCHBOARD_JAEGER_URL');
      expect(stdout).toContain('OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318');

      expect(stdout).toContain('All 10 commands did what the script expects.');
      expect(stdout.trimEnd().endsWith('Stopped.')).toBe(true);
      expect(await keysOf(namespace)).toEqual([]);
    },
    DEMO_EXIT_MS + 30_000,
  );

  it.runIf(process.platform === 'linux')(
    'killed outright (SIGKILL), leaves no service running',
    async () => {
      const namespace = `demo-test-${randomBytes(4).toString('hex')}`;
      const port = await freePortBlock();
      const running = startDemo({
        env: {
          ...cleanEnv,
          SWITCHBOARD_DEMO_PORT: String(port),
          SWITCHBOARD_DEMO_NAMESPACE: namespace,
          SWITCHBOARD_SPAN_FILE: join(spanDir, 'killed-spans.jsonl'),
          REDIS_URL: redisUrl,
          // The services inherit it: each drain is short, so what is measured is whether they notice.
          SWITCHBOARD_DRAIN_MS: '3000',
        },
      });
      try {
        // The system is up once the first command of the conversation runs.
        await running.waitForLine(/^\$ switchboard ask/, {
          timeoutMs: 90_000,
          describe: 'its first command',
        });
        const services = running.pidsLeft().filter((pid) => pid !== running.pid);
        expect(services.length).toBeGreaterThanOrEqual(4);
        running.signal('SIGKILL');
        expect(await running.exited).toBe('SIGKILL');
        // Each service notices its parent is gone, drains and exits; give them their drain and more.
        expect(
          (await running.untilNoneLeft({ withinMs: 60_000 })).map(commandOf),
          'processes still running 60 s after the demo died',
        ).toEqual([]);
      } finally {
        await stopDemo(running);
        const keys = await keysOf(namespace);
        if (keys.length > 0) {
          const redis = createRedisConnection({ url: redisUrl });
          await redis.del(...keys).finally(() => redis.disconnect());
        }
      }
    },
    120_000,
  );

  it('says which port is taken and how to pick another', async () => {
    const port = await freePortBlock();
    const blocker: Server = await new Promise((resolve) => {
      const server = createServer().listen(port + 1, '127.0.0.1', () => resolve(server));
    });
    try {
      const { code, stdout, stderr } = await demo({ SWITCHBOARD_DEMO_PORT: String(port) });
      expect(code).toBe(2);
      expect(stderr).toContain(`Port ${port + 1} is already in use on 127.0.0.1`);
      expect(stderr).toMatch(/pick other ports, e\.g\.: SWITCHBOARD_DEMO_PORT=\d+ pnpm demo/);
      expect(stdout).not.toContain('Starting the system');
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('refuses a wrong setting before starting anything, naming the variable', async () => {
    const { code, stderr, stdout } = await demo({
      SWITCHBOARD_DEMO_PORT: '70000',
      SWITCHBOARD_DEMO_DEADLINE_MS: 'soon',
      SWITCHBOARD_MODEL: 'gpt-4.1-mini',
    });
    expect(code).toBe(2);
    expect(stderr).toContain('Invalid configuration:');
    expect(stderr).toContain('SWITCHBOARD_DEMO_PORT must be 1-65532');
    expect(stderr).toContain('SWITCHBOARD_DEMO_DEADLINE_MS must be a number of milliseconds');
    expect(stderr).toContain('OPENAI_API_KEY is needed for model "gpt-4.1-mini"');
    expect(stdout).not.toContain('Starting the system');
  });
});
