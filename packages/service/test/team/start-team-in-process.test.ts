import { randomUUID } from 'node:crypto';
import { TaskState } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { silentLogger } from '@switchboard/agent';
import { sendMessageRequest, userMessage } from '@switchboard/protocol';
import type { InProcessTeam } from '@switchboard/team';
import { afterEach, describe, expect, it } from 'vitest';
import { startTeamInProcess } from '../../src/index.ts';
import travelDesk, { bookings } from './travel-desk.ts';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let running: InProcessTeam | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
  bookings.clear();
});

/** An SDK client of the supervisor, as `user`. */
async function clientAs(team: InProcessTeam, user: string) {
  const token = team.access.customers[user] ?? '';
  const fetchAs: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('Authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  return new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl: fetchAs })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl: fetchAs }),
  }).createFromUrl(team.access.supervisorUrl);
}

async function ask(team: InProcessTeam, user: string, text: string) {
  const client = await clientAs(team, user);
  const task = await client.sendMessage(
    sendMessageRequest({ message: userMessage({ text, contextId: randomUUID() }) }),
  );
  if (!('status' in task)) throw new Error('expected a task');
  const answer = [...(task.status?.message ? [task.status.message] : []), ...task.artifacts]
    .flatMap((part) => part.parts)
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join('');
  return { task, state: task.status?.state, answer };
}

/** The operator's admin API of the supervisor. */
async function admin(team: InProcessTeam, path: string, body?: unknown) {
  const response = await fetch(`${team.access.supervisorUrl}/admin${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Bearer ${team.access.adminToken}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe.each([
  ['in memory, over loopback HTTP', undefined],
  ['on Redis, over the queues', { url }],
])('a team of your own in one process, %s', (_how, redis) => {
  it('answers its users through the supervisor, and a dangerous action waits for the operator, then runs once', async () => {
    running = await startTeamInProcess(travelDesk, {
      port: 0,
      logger: silentLogger(),
      ...(redis ? { redis } : {}),
    });

    const weather = await ask(running, 'traveller-1', 'What is the weather forecast for "Lisbon"?');
    expect(weather.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(weather.answer).toContain('sunny');

    const booking = await ask(running, 'traveller-1', 'Please book flight TP123 for me.');
    expect(booking.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(bookings.size).toBe(0);
    const pending = await admin(running, '/approvals?status=pending');
    const [approval] = pending.json.approvals as { id: string; agent: string; action: string }[];
    expect(approval).toMatchObject({
      agent: 'flights',
      action: 'Book a seat on flight TP123 for traveller-1',
    });

    const decided = await admin(running, `/approvals/${approval?.id}/approve`, { reason: 'ok' });
    expect(decided.status).toBe(202);
    await expect.poll(() => bookings.get('traveller-1'), { timeout: 20_000 }).toEqual(['TP123']);
    const again = await admin(running, `/approvals/${approval?.id}/approve`, {});
    expect(again.status).toBe(409);
    expect(bookings.get('traveller-1')).toEqual(['TP123']);

    // Another user sees only their own bookings.
    const other = await ask(running, 'traveller-2', 'Show my bookings.');
    expect(other.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(other.answer).not.toContain('TP123');
  }, 60_000);
});
