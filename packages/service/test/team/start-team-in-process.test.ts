import { silentLogger, ToolRouter } from '@switchboard/agent';
import { connectTeam, operatorOf } from '@switchboard/delegate';
import { defineTeam, type InProcessTeam } from '@switchboard/team';
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

const as = (team: InProcessTeam, user: string) =>
  connectTeam({ url: team.access.supervisorUrl, token: team.access.users[user] ?? '' });

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
    const traveller = await as(running, 'traveller-1');
    // The supervisor serves the operators' console beside its admin API.
    const signIn = await fetch(`${running.access.supervisorUrl}/console/sign-in`);
    expect(signIn.status).toBe(200);
    expect(await signIn.text()).toContain('Operator token');
    const operator = operatorOf({ url: running.access.supervisorUrl, token: running.access.adminToken });

    const weather = await traveller.ask('What is the weather forecast for "Lisbon"?');
    expect(weather).toMatchObject({ state: 'completed', text: expect.stringContaining('sunny') });

    const booking = await traveller.ask('Please book flight TP123 for me.');
    expect(booking.state).toBe('input-required');
    expect(booking.pendingApprovals.map((pending) => pending.action)).toEqual([
      'Book a seat on flight TP123 for traveller-1',
    ]);
    expect(bookings.size).toBe(0);
    const [approval] = await operator.approvals();
    expect(approval).toMatchObject({
      agent: 'flights',
      action: 'Book a seat on flight TP123 for traveller-1',
    });

    await operator.approve(approval?.id ?? '', 'seat available');
    await expect.poll(() => bookings.get('traveller-1'), { timeout: 20_000 }).toEqual(['TP123']);
    await expect(operator.approve(approval?.id ?? '')).rejects.toThrow(/already approved/);
    expect(bookings.get('traveller-1')).toEqual(['TP123']);
    await expect.poll(async () => (await traveller.task(booking.taskId)).state).toBe('completed');

    // Another user sees only their own bookings.
    const other = await (await as(running, 'traveller-2')).ask('Show my bookings.');
    expect(other.state).toBe('completed');
    expect(other.text).not.toContain('TP123');
  }, 60_000);
});

describe('a worker with a tool router', () => {
  it('answers, before its model, that none of its tools serves a request it was sent', async () => {
    let built = 0;
    const routed = defineTeam({
      title: 'travel desk, routed',
      users: ['traveller-1'],
      supervisor: travelDesk.supervisor,
      workers: travelDesk.workers.map((worker) =>
        worker.name === 'flights'
          ? {
              ...worker,
              router: () => {
                built++;
                return new ToolRouter();
              },
            }
          : worker,
      ),
    });
    running = await startTeamInProcess(routed, { port: 0, logger: silentLogger() });
    const traveller = await as(running, 'traveller-1');
    // A request its tools serve is routed to them as before.
    const booking = await traveller.ask('Please book flight TP123 for me.');
    expect(booking.state).toBe('input-required');
    // Sent to flights, whose tools list and book: its router says so, and no model call books anything.
    const pets = await traveller.ask('Can my dog travel in the cabin on flight TP123?');
    expect(pets).toMatchObject({ state: 'completed', pendingApprovals: [] });
    expect(pets.text).toContain('The flights agent answered');
    expect(pets.text).toContain('none of the things I can do fits this request');
    expect(built).toBe(1);
  }, 60_000);
});
