import { randomUUID } from 'node:crypto';
import { Role, type Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { RedisTaskDirectory, RedisTaskStore } from '@switchboard/host/redis';
import { createRedisConnection } from '@switchboard/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registryAgentRecords } from '../src/index.ts';
import { OPERATOR_TOKEN, startConsoleHost } from './support/console-host.ts';

const redis = createRedisConnection({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
const run = randomUUID();
const prefix = `{console-test:${run}}`;
/** A worker's tasks, under a prefix of its own. */
const ordersPrefix = `{console-test:${run}:orders}`;
/** The first task's state changed at T0; each next one a second later. */
const T0 = Date.parse('2026-12-01T09:00:00.000Z');
const COUNT = 130;

let running: Awaited<ReturnType<typeof startConsoleHost>> | undefined;
let cookie = '';

function task(i: number): Task {
  const id = `t-${String(i).padStart(3, '0')}`;
  const text = i === 7 ? '<img src=x onerror=alert(1)> \u001b[31mred' : `request number ${i}`;
  return {
    id,
    contextId: `ctx-${i}`,
    status: {
      state: i % 2 === 0 ? TaskState.TASK_STATE_COMPLETED : TaskState.TASK_STATE_INPUT_REQUIRED,
      message: undefined,
      timestamp: new Date(T0 + i * 1000).toISOString(),
    },
    history: [
      {
        messageId: `${id}-m`,
        contextId: `ctx-${i}`,
        taskId: id,
        role: Role.ROLE_USER,
        parts: [
          {
            content: { $case: 'text', value: text },
            metadata: undefined,
            filename: '',
            mediaType: 'text/plain',
          },
        ],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
    ],
    artifacts: [],
    metadata: undefined,
  };
}

/** The ids of the requests a list page links to, in its order. */
const listed = (page: string) =>
  [...page.matchAll(/href="\/console\/requests\/([to]-\d+)(?:\?agent=\w+)?"/g)].map((m) => m[1]);
const olderLink = (page: string) =>
  /href="\/console\/requests\?([^"]*before=[^"]*)"/.exec(page)?.[1]?.replaceAll('&amp;', '&');
const list = (query: string) =>
  fetch(`${running?.consoleUrl}/requests${query}`, { headers: { Cookie: cookie } });

beforeAll(async () => {
  const store = new RedisTaskStore({ redis, prefix });
  for (let i = 0; i < COUNT; i++) {
    const user = `u-${i % 3}`;
    await store.save(task(i), new ServerCallContext({ user: { isAuthenticated: true, userName: user } }));
  }
  const orders = new RedisTaskStore({ redis, prefix: ordersPrefix });
  const delegated = { ...task(500), id: 'o-1' };
  await orders.save(delegated, new ServerCallContext({ user: { isAuthenticated: true, userName: 'u-2' } }));
  running = await startConsoleHost({
    email: { to: 'a@example.com', subject: 's', body: 'b' },
    stores: { taskStore: store, directory: new RedisTaskDirectory({ redis, prefix }) },
    agents: registryAgentRecords({
      registry: { list: async () => [{ name: 'orders' }, { name: 'mailer' }] },
      self: 'mailer',
      recordsOf: () => ({ tasks: new RedisTaskDirectory({ redis, prefix: ordersPrefix }) }),
    }),
  });
  const signedIn = await fetch(`${running.consoleUrl}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: new URL(running.url).origin },
    body: new URLSearchParams({ token: OPERATOR_TOKEN }).toString(),
  });
  cookie = signedIn.headers.getSetCookie()[0]?.split(';')[0] ?? '';
});
afterAll(async () => {
  await running?.close();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `{console-test:${run}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
  await redis.quit();
});

const ids = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, k) => `t-${String(to - 1 - k).padStart(3, '0')}`);

describe('the requests list, filtered by user, state and time, a page at a time', () => {
  it('shows the newest 100, and an "Older requests" link to the rest, which ends the list', async () => {
    const first = await (await list('')).text();
    expect(listed(first)).toEqual(ids(30, COUNT));
    const older = olderLink(first);
    expect(older).toBeDefined();
    const second = await (await list(`?${older}`)).text();
    expect(listed(second)).toEqual(ids(0, 30));
    expect(olderLink(second)).toBeUndefined();
    // What a user wrote is text on the page.
    expect(second).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(second).not.toContain('<img src=x');
  });

  it('keeps the requests whose state changed from "From" (inclusive) to "To" (exclusive), in UTC', async () => {
    const at = (i: number) => new Date(T0 + i * 1000).toISOString().slice(0, 19);
    const page = await (await list(`?from=${at(10)}&to=${at(20)}`)).text();
    expect(listed(page)).toEqual(ids(10, 20));
    // The form shows the times it filtered by.
    expect(page).toContain(`value="${at(10)}"`);
    const withUser = await (await list(`?from=${at(10)}&to=${at(20)}&user=u-1&state=input-required`)).text();
    // u-1 has i % 3 === 1; input-required is odd i.
    expect(listed(withUser)).toEqual(['t-019', 't-013']);
  });

  it('says what is wrong with a time or a state it cannot read, and lists nothing', async () => {
    const badTime = await list('?from=yesterday&user=%3Cb%3E');
    expect(badTime.status).toBe(400);
    const badPage = await badTime.text();
    expect(badPage).toContain('“From” is not a time: write it as 2026-12-04T19:00 (UTC)');
    expect(badPage).toContain('value="&lt;b&gt;"');
    expect(listed(badPage)).toEqual([]);
    const badState = await list('?state=done');
    expect(badState.status).toBe(400);
    expect(await badState.text()).toContain('There is no state “done”: pick one of submitted, working');
    const reversed = await list('?from=2026-12-02T00:00&to=2026-12-01T00:00');
    expect(await reversed.text()).toContain('“From” is not before “To”');
  });
});

describe('the requests of the team’s other agents', () => {
  it('lists a worker’s tasks with Agent, opens one, and names the agents when asked for one it does not know', async () => {
    const own = await (await list('')).text();
    expect(own).toContain('<option value="" selected>mailer</option>');
    expect(own).toContain('<option value="orders">orders</option>');
    const worker = await (await list('?agent=orders')).text();
    expect(listed(worker)).toEqual(['o-1']);
    expect(worker).toContain('href="/console/requests/o-1?agent=orders"');
    const detail = await fetch(`${running?.consoleUrl}/requests/o-1?agent=orders`, {
      headers: { Cookie: cookie },
    });
    expect(detail.status).toBe(200);
    const detailPage = await detail.text();
    expect(detailPage).toContain('A task of <b>orders</b>, for <b>u-2</b>');
    expect(detailPage).toContain('data-events="/console/requests/o-1/events?agent=orders"');
    // The host's own directory does not have it.
    expect((await fetch(`${running?.consoleUrl}/requests/o-1`, { headers: { Cookie: cookie } })).status).toBe(
      404,
    );
    const unknown = await list('?agent=%7Bconsole-test%7D');
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain(
      'There is no agent “{console-test}” in the team: pick one of mailer, orders.',
    );
  });
});
