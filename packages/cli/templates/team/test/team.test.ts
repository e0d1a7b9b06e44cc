// The whole team in this process, as a user and an operator reach it. `npm test` runs it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { silentLogger } from '@switchboard/agent';
import { connectTeam, operatorOf } from '@switchboard/delegate';
import { startTeamInProcess } from '@switchboard/service';
import type { InProcessTeam } from '@switchboard/team';
import team from '../team.ts';

let running: InProcessTeam;
before(async () => {
  // In memory over loopback HTTP; pass { redis: { url } } to run on Redis, as production does.
  running = await startTeamInProcess(team, { port: 0, logger: silentLogger() });
});
after(() => running?.stop());

const as = (user: string) =>
  connectTeam({ url: running.access.supervisorUrl, token: running.access.users[user] ?? '' });

test('a user sees their own tickets, and only theirs', async () => {
  const alice = await (await as('alice')).ask('Show my tickets.');
  assert.equal(alice.state, 'completed');
  assert.match(alice.text, /T-1001/);
  assert.doesNotMatch(alice.text, /T-2001/);
});

test('closing a ticket waits for an operator, who sees what will happen; approved, it closes once', async () => {
  const bob = await as('bob');
  const asked = await bob.ask('Please close ticket T-2001.');
  assert.equal(asked.state, 'input-required');

  const operator = operatorOf({ url: running.access.supervisorUrl, token: running.access.adminToken });
  const [pending] = await operator.approvals();
  assert.equal(pending?.action, 'Close ticket T-2001 ("My laptop will not start") for bob');

  await operator.approve(pending.id, 'fixed on site');
  let done = await bob.task(asked.taskId);
  for (let waited = 0; done.state !== 'completed' && waited < 100; waited++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    done = await bob.task(asked.taskId);
  }
  assert.equal(done.state, 'completed');
  await assert.rejects(operator.approve(pending.id), /already approved/);
});
