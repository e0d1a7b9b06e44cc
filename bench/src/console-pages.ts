/**
 * How long each page of the operators' console takes with 10,000 tasks and 1,000 approvals in
 * Redis (800 waiting, 200 decided) and 5,000 requests' costs over 93 days, against the admin API's JSON of the same board (the baseline,
 * what `switchboard approvals list` reads) in the same run: a host with a `RedisApprovalBoard`, a `RedisTaskStore` and
 * its `RedisTaskDirectory`, on a private `redis-server`, each page asked 20 times by a signed-in
 * operator over loopback HTTP. Target: every page under 1 s.
 *
 *   pnpm --filter @switchboard/bench console-pages
 */
import { createHash } from 'node:crypto';
import { type Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { type ApprovalRequest, costOf, defineAgent, silentLogger } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { consoleRoutes } from '@switchboard/console';
import { hostAgent } from '@switchboard/host';
import {
  RedisApprovalBoard,
  RedisCostBook,
  RedisTaskDirectory,
  RedisTaskEventLog,
  RedisTaskStore,
} from '@switchboard/host/redis';
import { userMessage } from '@switchboard/protocol';
import { createRedisConnection } from '@switchboard/redis';
import { startPrivateRedis } from './private-redis.ts';

const TASKS = 10_000;
const USERS = 200;
const APPROVALS = 1_000;
/** Root requests in the cost book, spread over its 93 days, each across four agents. */
const COSTED = 5_000;
/** Of which one in five is decided. */
const ROUNDS = 20;
const TARGET_MS = 1_000;
const OPERATOR = 'bench-operator-token-0123456789';
const prefix = '{bench:console}';

const hex = (text: string) => createHash('sha256').update(text).digest('hex');

function task(n: number): Task {
  const id = `task-${n}`;
  const message = {
    ...userMessage({
      text: `Please refund order A${10_000 + n}, it arrived broken.`,
      taskId: id,
      contextId: `ctx-${n}`,
    }),
  };
  return {
    id,
    contextId: `ctx-${n}`,
    status: {
      state: n % 10 === 0 ? TaskState.TASK_STATE_INPUT_REQUIRED : TaskState.TASK_STATE_COMPLETED,
      message: undefined,
      timestamp: new Date(Date.UTC(2026, 11, 1) + n * 1_000).toISOString(),
    },
    history: [message],
    artifacts: [],
    metadata: {},
  };
}

function approval(n: number): ApprovalRequest {
  const args = { orderId: `A${10_000 + n}`, amount: 59.9 };
  return {
    id: `apr_${hex(String(n)).slice(0, 16)}`,
    agent: 'orders',
    conversationId: `ctx-${n}`,
    toolCallId: `call-${n}`,
    tool: 'refund_order',
    action: `Refund order A${10_000 + n} in full (59.90 EUR)`,
    arguments: args,
    argumentsHash: hex(JSON.stringify(args)),
    reversible: false,
    repeatable: false,
    text: `The orders agent wants to refund order A${10_000 + n} in full (59.90 EUR).`,
    requestedAt: new Date(Date.UTC(2026, 11, 1) + n * 1_000).toISOString(),
  };
}

const context = (user: string) => new ServerCallContext({ user: { isAuthenticated: true, userName: user } });

const server = await startPrivateRedis();
const redis = createRedisConnection({ url: server.url });
try {
  const store = new RedisTaskStore({ redis, prefix, logger: silentLogger() });
  const board = new RedisApprovalBoard({ redis, prefix });
  for (let from = 0; from < TASKS; from += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, TASKS - from) }, (_, i) => {
        const n = from + i;
        return store.save(task(n), context(`user-${n % USERS}`));
      }),
    );
  }
  for (let n = 0; n < APPROVALS; n++) {
    await board.sync({
      taskId: `task-${n * 10}`,
      contextId: `ctx-${n * 10}`,
      owner: `user-${(n * 10) % USERS}`,
      tenant: '',
      requestedBy: `user:user-${(n * 10) % USERS}`,
      pending: [approval(n)],
    });
    // One in five decided already: the decisions page has history to show.
    if (n % 5 === 0) await board.decide({ id: approval(n).id, decision: 'approved', decidedBy: 'bob' });
  }
  const costBook = new RedisCostBook({ redis, prefix, flushEveryMs: 0 });
  for (let n = 0; n < COSTED; n++) {
    const figures = (k: number) => ({
      tokensIn: 800 + k,
      tokensOut: 120 + k,
      modelMs: 900,
      toolMs: 40,
      queueWaitMs: 3,
      hops: 1,
    });
    await costBook.record({
      taskId: `task-${n}`,
      at: new Date(Date.now() - (n % 93) * 86_400_000),
      cost: costOf(
        ['supervisor', 'orders', 'inventory', 'comms'].map((agent, k) => ({ agent, ...figures(k) })),
      ),
    });
  }
  const host = await hostAgent({
    agent: defineAgent({ name: 'orders', instructions: 'Help with orders.' }),
    model: new ScriptedModel({ turns: [] }),
    logger: silentLogger(),
    http: { host: '127.0.0.1', operatorRoutes: [consoleRoutes({ costBook })] },
    auth: { tokens: { operators: { [OPERATOR]: 'ada' } } },
    approvals: board,
    stores: {
      taskStore: store,
      directory: new RedisTaskDirectory({ redis, prefix }),
      eventLog: new RedisTaskEventLog({ redis, prefix }),
    },
  });
  await host.start();
  try {
    const first = (await board.page({ status: 'pending', limit: 1 })).approvals[0]?.id ?? '';
    const pages: [string, string, Record<string, string>][] = [
      [
        'admin API: GET /admin/approvals (baseline)',
        '/admin/approvals',
        { Authorization: `Bearer ${OPERATOR}` },
      ],
      ['console: waiting approvals (start page)', '/console/', {}],
      ['console: one approval', `/console/approvals/${first}`, {}],
      ['console: decisions', '/console/history', {}],
      ['console: requests', '/console/requests', {}],
      ['console: requests of one user', '/console/requests?user=user-7', {}],
      [
        'console: requests in an hour, one state',
        '/console/requests?from=2026-12-01T01:00&to=2026-12-01T02:00&state=input-required',
        {},
      ],
      [
        'console: requests, an older page',
        `/console/requests?before=${Date.UTC(2026, 11, 1) + 5_000_000}`,
        {},
      ],
      ['console: one request', '/console/requests/task-5000', {}],
      ['console: team', '/console/team', {}],
      ['console: costs, 14 days (default)', '/console/costs', {}],
      ['console: costs, 93 days', '/console/costs?days=93', {}],
    ];
    const cookie = `switchboard_console=${OPERATOR}`;
    const rows: string[][] = [];
    for (const [label, path, headers] of pages) {
      const times: number[] = [];
      let bytes = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const started = performance.now();
        const response = await fetch(`${host.url}${path}`, { headers: { Cookie: cookie, ...headers } });
        const body = await response.text();
        times.push(performance.now() - started);
        if (response.status !== 200)
          throw new Error(`${path} answered ${response.status}: ${body.slice(0, 200)}`);
        bytes = body.length;
      }
      times.sort((a, b) => a - b);
      const p50 = times[Math.floor(ROUNDS / 2)] ?? 0;
      const max = times.at(-1) ?? 0;
      rows.push([
        label,
        p50.toFixed(1),
        max.toFixed(1),
        String(Math.round(bytes / 1024)),
        max < TARGET_MS ? 'yes' : 'NO',
      ]);
    }
    const header = ['page', 'p50 ms', 'max ms', 'KB', `< ${TARGET_MS} ms`];
    const widths = header.map((title, i) =>
      Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)),
    );
    const line = (row: string[]) =>
      row
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
        .join(' | ');
    console.log(
      `${TASKS} tasks of ${USERS} users, ${APPROVALS} approvals (a fifth decided), ${COSTED} requests' ` +
        `costs over 93 days; ${ROUNDS} requests a page`,
    );
    console.log(line(header));
    for (const row of rows) console.log(line(row));
  } finally {
    await host.close();
  }
} finally {
  await redis.quit();
  await server.stop();
}
