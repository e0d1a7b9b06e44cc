/**
 * Every Lua script and multi-key call of Switchboard on a real Redis Cluster (the cluster stage:
 * `pnpm run test:cluster`). Each source file that runs a script or a transaction is listed below with
 * an exercise of those calls; the exercises run while every master is MONITORed, and each script must
 * declare at least one key and touch only keys of its declared keys' slot, each MULTI only keys of
 * one slot. A new file with a script or a multi-key call fails the inventory until it is listed here.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { TaskState } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { BULLMQ_BINDING, defaultQueueAddress, queueUrl, ReplyWriter } from '@switchboard/a2a-bullmq';
import { argumentsHash, costOf, silentLogger } from '@switchboard/agent';
import { RedisShopStore, seedShop } from '@switchboard/customer-service';
import { AgentRegistry } from '@switchboard/delegate';
import { buildAgentCard, RedisLimitCounters } from '@switchboard/host';
import {
  RedisApprovalBoard,
  RedisCostBook,
  RedisIntentStore,
  RedisTaskEventLog,
  RedisTaskLedger,
  RedisTaskStore,
} from '@switchboard/host/redis';
import {
  createRedisConnection,
  duplicateConnection,
  isCluster,
  type RedisConnection,
  scanKeys,
} from '@switchboard/redis';
import { ShadowCopyStream, ShadowPairStore } from '@switchboard/shadow';
import type { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrdersAgent } from '../src/agents.ts';

const root = join(import.meta.dirname, '..', '..');
const clusterNodes = process.env.REDIS_CLUSTER_NODES;

/** What makes a file hold a script or a multi-key call. */
const SCRIPT_OR_MULTI_KEY =
  /\.(eval|evalsha|fcall|multi|pipeline|mget|mset|zinter|zunion|sinter|sunion|rename|lmove|smove)\(|defineCommand\(|new RedisScript\(/;

type Exercise = (redis: RedisConnection, namespace: string) => Promise<void>;

const anonymous = new ServerCallContext();
const task = (id: string, state: TaskState) => ({
  id,
  contextId: `ctx-${id}`,
  status: { state, message: undefined, timestamp: new Date().toISOString() },
  artifacts: [],
  history: [],
  metadata: {},
});

/** A live request as the shadow tap copies it. */
const copy = (taskId: string) => ({
  taskId,
  contextId: `ctx-${taskId}`,
  agent: 'orders',
  text: 'Where is my order A10086?',
  acceptedAt: new Date().toISOString(),
});

/** Each file with scripts or multi-key calls, and what runs them all. */
const EXERCISES: Record<string, Exercise> = {
  'packages/a2a-bullmq/src/server/reply-writer.ts': async (redis, ns) => {
    const writer = new ReplyWriter({ redis, replyTo: `${ns}:reply:walk`, requestId: 'r1' });
    await writer.item('{}');
    await writer.end('{}');
  },
  'packages/host/src/middleware/limits/redis-limit-counters.ts': async (redis, ns) => {
    const counters = new RedisLimitCounters({ redis, prefix: `{${ns}:orders}` });
    await counters.countRequest('rate:customer:alice', 60_000);
    await counters.acquireSlot('tasks:customer:alice', 'task-1', 2, 60_000);
    await counters.renewSlot('tasks:customer:alice', 'task-1', 60_000);
    await counters.releaseSlot('tasks:customer:alice', 'task-1');
  },
  'packages/host/src/costs/redis-cost-book.ts': async (redis, ns) => {
    const book = new RedisCostBook({ redis, prefix: `{${ns}:supervisor}` });
    const figures = { tokensIn: 10, tokensOut: 2, modelMs: 5, toolMs: 1, queueWaitMs: 1, hops: 1 };
    const at = new Date();
    await book.record({ taskId: 't1', at, cost: costOf([{ agent: 'supervisor', ...figures }]) });
    const day = at.toISOString().slice(0, 10);
    await book.days({ from: day, to: day });
  },
  'packages/host/src/runs/redis-intent-store.ts': async (redis, ns) => {
    const intents = new RedisIntentStore({ redis, prefix: `{${ns}:orders}` });
    const now = new Date();
    await intents.begin({ key: 'refund:A10086', tool: 'refund_order', now });
    await intents.finish({ key: 'refund:A10086', status: 'succeeded', result: '{}', now });
  },
  'packages/host/src/tasks/redis-task-store.ts': async (redis, ns) => {
    const store = new RedisTaskStore({ redis, prefix: `{${ns}:orders}`, logger: silentLogger() });
    await store.save(task('t1', TaskState.TASK_STATE_WORKING), anonymous);
    await store.save(task('t1', TaskState.TASK_STATE_COMPLETED), anonymous);
    // A context and a state together: the two indexes intersected (task-list-window.ts).
    await store.list(
      { tenant: '', contextId: 'ctx-t1', status: TaskState.TASK_STATE_COMPLETED } as never,
      anonymous,
    );
    await store.list({ tenant: '' } as never, anonymous);
  },
  'packages/host/src/tasks/prune-expired-tasks.ts': async (redis, ns) => {
    // Pruning runs on every list of the task store.
    const store = new RedisTaskStore({ redis, prefix: `{${ns}:orders}`, logger: silentLogger() });
    await store.save(task('t2', TaskState.TASK_STATE_WORKING), anonymous);
    await redis.del(`{${ns}:orders}:task:t2`);
    await store.list({ tenant: '' } as never, anonymous);
  },
  'packages/host/src/tasks/task-event-log.ts': async (redis, ns) => {
    const log = new RedisTaskEventLog({ redis, prefix: `{${ns}:orders}`, logger: silentLogger() });
    const value = task('t3', TaskState.TASK_STATE_WORKING);
    log.append('t3', { payload: { $case: 'task', value } } as never, { refreshExpiry: true });
    await log.sinceLastTask('t3');
    await log.close();
  },
  'packages/host/src/runs/redis-task-ledger.ts': async (redis, ns) => {
    const prefix = `{${ns}:orders}`;
    const store = new RedisTaskStore({ redis, prefix, logger: silentLogger() });
    const alive = new RedisTaskLedger({
      redis,
      prefix,
      instanceId: 'alive',
      ttlMs: 60_000,
      logger: silentLogger(),
    });
    const dead = new RedisTaskLedger({
      redis,
      prefix,
      instanceId: 'dead',
      ttlMs: 60_000,
      logger: silentLogger(),
    });
    await store.save(task('t4', TaskState.TASK_STATE_WORKING), anonymous);
    await dead.begin({ taskId: 't4', contextId: 'ctx-t4', owner: 'alice', tenant: '' });
    await alive.start(store);
    await alive.sweep(store);
    await alive.stop();
  },
  'packages/host/src/approvals/redis-approval-board.ts': async (redis, ns) => {
    const board = new RedisApprovalBoard({ redis, prefix: `{${ns}:supervisor}` });
    const request = (id: string) => ({
      id,
      agent: 'orders',
      conversationId: 'ctx-1',
      toolCallId: `call-${id}`,
      tool: 'refund_order',
      action: 'Refund order A10086',
      arguments: { orderId: 'A10086' },
      argumentsHash: argumentsHash({ orderId: 'A10086' }),
      reversible: false,
      repeatable: false,
      text: 'The orders agent wants to refund order A10086.',
      requestedAt: new Date().toISOString(),
    });
    const owner = { taskId: 'task-1', contextId: 'ctx-1', owner: 'alice', tenant: '' };
    await board.sync({ ...owner, pending: [request('apr_a'), request('apr_b')] });
    await board.sync({ ...owner, pending: [request('apr_b')] });
    await board.decide({ id: 'apr_b', decision: 'approved', decidedBy: 'olivia' });
    await board.reopen('apr_b');
    await board.list({ status: 'all' });
  },
  'packages/delegate/src/registry/agent-registry.ts': async (redis, ns) => {
    const card = buildAgentCard({
      agent: createOrdersAgent().agent,
      interfaces: [{ url: queueUrl(defaultQueueAddress('orders', ns)), protocolBinding: BULLMQ_BINDING }],
    });
    const registry = new AgentRegistry({ redis, namespace: ns, ttlSeconds: 30, logger: silentLogger() });
    const registration = await registry.register({ card, instanceId: 'pod-1' });
    await redis.del(`{${ns}:registry}:agent:orders:pod-1`);
    await registry.list();
    await registration.stop();
  },
  'packages/shadow/src/shadow-copy-stream.ts': async (redis, ns) => {
    const stream = new ShadowCopyStream({ redis, prefix: `{${ns}:orders}`, agent: 'orders' });
    await stream.add(copy('t5'));
    // A blocking read takes a connection of its own, as the shadow worker's.
    const reader = duplicateConnection(redis);
    try {
      await stream.take({ redis: reader, consumer: 'c1', count: 10, blockMs: 100, handle: async () => {} });
    } finally {
      reader.disconnect();
    }
  },
  'packages/shadow/src/shadow-pair-store.ts': async (redis, ns) => {
    const pairs = new ShadowPairStore({ redis, prefix: `{${ns}:orders}` });
    await pairs.open(copy('t6'), 'prompt-v2');
    const side = {
      by: 'offline',
      answer: 'ok',
      outcome: 'completed',
      tools: [],
      finishedAt: new Date().toISOString(),
    };
    await pairs.record('t6', { role: 'live', ...side });
    await pairs.record('t6', { role: 'shadow', ...side });
    await pairs.list();
  },
  'examples/customer-service/shop/src/domain/redis-shop-store.ts': async (redis, ns) => {
    const store = new RedisShopStore({ redis, prefix: ns });
    await seedShop({ store, reset: true });
    await store.refundOrder({ orderId: 'A10086', idempotencyKey: 'walk-refund' });
    await store.updateShippingAddress({
      orderId: 'A10094',
      address: { line1: '1 Walk Street', city: 'Berlin', postalCode: '10115', country: 'DE' } as never,
      idempotencyKey: 'walk-address',
    });
    await store.reserveStock({
      sku: 'SKU-1001',
      quantity: 1,
      idempotencyKey: 'walk-reserve',
      holder: 'user:C001',
    });
    await store.queueEmail({
      to: 'alice@example.com',
      subject: 'Hi',
      body: 'Hello',
      idempotencyKey: 'walk-email',
    });
  },
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The `src/` files of every package and of the example that hold a script or a multi-key call. */
function filesWithScripts(): string[] {
  return ['packages', 'examples/customer-service']
    .flatMap((group) =>
      readdirSync(join(root, group)).flatMap((name) => {
        try {
          return sourceFiles(join(root, group, name, 'src'));
        } catch {
          return [];
        }
      }),
    )
    .filter((path) => SCRIPT_OR_MULTI_KEY.test(readFileSync(path, 'utf8')))
    .map((path) => relative(root, path))
    .sort();
}

/** Files whose calls another file's exercise runs. */
const RUN_BY: Record<string, string> = {
  // The task store's save and its listing by context and state.
  'packages/host/src/tasks/stored-task.ts': 'packages/host/src/tasks/redis-task-store.ts',
  'packages/host/src/tasks/task-list-window.ts': 'packages/host/src/tasks/redis-task-store.ts',
  'packages/host/src/tasks/guarded-save.ts': 'packages/host/src/tasks/redis-task-store.ts',
  // How every file above with a `new RedisScript(` runs it: its exercise is theirs.
  'packages/redis/src/redis-script.ts': 'every file with a RedisScript',
  // The demo clears its namespace on one local Redis only; it never runs on a cluster.
  'examples/customer-service/demo/src/demo-namespace.ts': 'none',
};

describe('the scripts and multi-key calls of the sources', () => {
  it('each has an exercise here, so the cluster walk below runs it', () => {
    const known = new Set([...Object.keys(EXERCISES), ...Object.keys(RUN_BY)]);
    expect(
      filesWithScripts().filter((file) => !known.has(file)),
      'files with a Lua script or a multi-key call that the cluster walk does not run: add an exercise to EXERCISES',
    ).toEqual([]);
  });

  it('no script is run with zero keys (a cluster sends it to any node)', () => {
    const keyless = filesWithScripts().filter((file) =>
      /\.eval\(\s*[A-Z_a-z.#]+,\s*0\s*,|[A-Z_]+\.run\([^,()]+,\s*\[\s*\]/.test(
        readFileSync(join(root, file), 'utf8'),
      ),
    );
    expect(keyless).toEqual([]);
  });
});

interface Seen {
  args: string[];
  source: string;
}

describe.skipIf(!clusterNodes)('on the Redis Cluster at REDIS_CLUSTER_NODES', () => {
  // Made only when the stage runs (a skipped suite still collects its body).
  let redis: Cluster;
  beforeAll(() => {
    redis = createRedisConnection({ clusterNodes: clusterNodes ?? '' });
  });
  const namespaces: string[] = [];
  afterAll(async () => {
    for (const ns of namespaces) {
      for (const pattern of [`{${ns}:*`, `{${ns}}:*`, `${ns}:*`]) {
        for await (const keys of scanKeys(redis, pattern))
          await Promise.all(keys.map((key) => redis.unlink(key)));
      }
    }
    await redis.quit();
  });

  const slotOf = async (key: string) => Number(await redis.cluster('KEYSLOT', key));
  const keysOfCommand = async (args: string[]): Promise<string[]> => {
    try {
      return (await redis.call('COMMAND', 'GETKEYS', ...args)) as string[];
    } catch {
      return []; // a command without keys
    }
  };

  /** What one master ran, as MONITOR reports it: scripts' own commands come from `lua`. */
  async function watch(node: Redis) {
    const seen: Seen[] = [];
    const monitor = await node.monitor();
    monitor.on('monitor', (_time: string, args: string[], source: string) => seen.push({ args, source }));
    return { seen, stop: () => monitor.disconnect() };
  }

  /** The scripts and transactions in what a node ran, with every key each touched. */
  async function problemsIn(seen: Seen[]): Promise<string[]> {
    const problems: string[] = [];
    for (let i = 0; i < seen.length; i++) {
      const entry = seen[i] as Seen;
      const command = entry.args[0]?.toLowerCase() ?? '';
      if (['eval', 'evalsha', 'fcall', 'eval_ro', 'evalsha_ro', 'fcall_ro'].includes(command)) {
        const count = Number(entry.args[2]);
        const declared = entry.args.slice(3, 3 + count);
        const touched: string[] = [];
        while (seen[i + 1]?.source === 'lua')
          touched.push(...(await keysOfCommand((seen[++i] as Seen).args)));
        const what = `${command} touching ${touched.slice(0, 3).join(', ') || 'nothing'}`;
        if (count < 1) {
          problems.push(`${what}: declares no key`);
          continue;
        }
        const slots = new Set(await Promise.all([...declared, ...touched].map(slotOf)));
        if (slots.size > 1)
          problems.push(`${what}: keys of ${slots.size} slots (${[...declared, ...touched].join(', ')})`);
      } else if (command === 'multi') {
        const keys: string[] = [];
        for (let j = i + 1; j < seen.length && seen[j]?.args[0]?.toLowerCase() !== 'exec'; j++) {
          if (seen[j]?.source === entry.source) keys.push(...(await keysOfCommand((seen[j] as Seen).args)));
        }
        const slots = new Set(await Promise.all(keys.map(slotOf)));
        if (slots.size > 1) problems.push(`MULTI over ${slots.size} slots: ${keys.join(', ')}`);
      }
    }
    return problems;
  }

  it.each(Object.keys(EXERCISES))('%s: each script declares its keys, all of one slot', async (file) => {
    expect(isCluster(redis)).toBe(true);
    const ns = `walk-${randomUUID().slice(0, 8)}`;
    namespaces.push(ns);
    await redis.ping();
    const watchers = await Promise.all(redis.nodes('master').map(watch));
    try {
      await (EXERCISES[file] as Exercise)(redis, ns);
      // MONITOR lines travel on their own connections: let them arrive.
      await redis.ping();
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      for (const watcher of watchers) watcher.stop();
    }
    const all = watchers.flatMap((watcher) => watcher.seen);
    expect(
      all.some((entry) => entry.source !== 'lua'),
      'the masters saw the exercise',
    ).toBe(true);
    const problems = (await Promise.all(watchers.map((watcher) => problemsIn(watcher.seen)))).flat();
    expect(problems).toEqual([]);
  });
});
