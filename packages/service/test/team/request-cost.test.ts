import { type ChatModel, silentLogger } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { connectTeam } from '@switchboard/delegate';
import type { InProcessTeam } from '@switchboard/team';
import { afterEach, describe, expect, it } from 'vitest';
import { startTeamInProcess } from '../../src/index.ts';
import travelDesk from './travel-desk.ts';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let running: InProcessTeam | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/** Each agent's script, with known usage: the supervisor asks the weather worker, which asks its tool. */
function scripted(agent: string): ChatModel {
  if (agent === 'weather') {
    return new ScriptedModel({
      turns: [
        {
          toolCalls: [{ name: 'forecast', arguments: { city: 'Lisbon' } }],
          usage: { promptTokens: 40, completionTokens: 8 },
        },
        { text: 'Sunny, 24 °C in Lisbon.', usage: { promptTokens: 50, completionTokens: 5 } },
      ],
    });
  }
  return new ScriptedModel({
    turns: [
      (request) => {
        const tool = request.tools?.find((declaration) => declaration.function.name.startsWith('weather'));
        return {
          toolCalls: [
            { name: tool?.function.name ?? 'weather', arguments: { request: 'The forecast for Lisbon?' } },
          ],
          usage: { promptTokens: 100, completionTokens: 10 },
        };
      },
      { text: 'It will be sunny in Lisbon.', usage: { promptTokens: 130, completionTokens: 6 } },
    ],
  });
}

/** A signed-in operator's GET of a console page, as its HTML. */
async function consolePage(team: InProcessTeam, path: string): Promise<string> {
  const consoleUrl = `${team.access.supervisorUrl}/console`;
  const signIn = await fetch(`${consoleUrl}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: new URL(consoleUrl).origin },
    body: new URLSearchParams({ token: team.access.adminToken }).toString(),
  });
  const cookie = signIn.headers.getSetCookie()[0]?.split(';')[0] ?? '';
  const page = await fetch(`${consoleUrl}${path}`, { headers: { cookie } });
  expect(page.status, path).toBe(200);
  return page.text();
}

/** The rows of a page's first cost table: the agent (or Total), then its six figures. */
function costRows(page: string): [string, ...number[]][] {
  const table = /<table class="costs">([\s\S]*?)<\/table>/.exec(page)?.[1] ?? '';
  return [...table.matchAll(/<tr><t[dh]>([^<]*)<\/t[dh]>((?:<td class="number">\d+<\/td>){6})<\/tr>/g)].map(
    ([, agent = '', figures = '']) => [agent, ...[...figures.matchAll(/\d+/g)].map(([n]) => Number(n))],
  );
}

describe.each([
  ['in memory, over loopback HTTP', undefined],
  ['on Redis, over the queues', { url }],
])('the cost of a request in the console, a team %s', (_how, redis) => {
  it('shows the request’s cost per agent and in total on its page, and the day’s totals on the costs page', async () => {
    running = await startTeamInProcess(travelDesk, {
      port: 0,
      logger: silentLogger(),
      model: scripted,
      ...(redis ? { redis } : {}),
    });
    const traveller = await connectTeam({
      url: running.access.supervisorUrl,
      token: running.access.users['traveller-1'] ?? '',
    });
    const reply = await traveller.ask('What is the weather forecast for Lisbon?');
    expect(reply).toMatchObject({ state: 'completed', text: 'It will be sunny in Lisbon.' });

    // The costs page: today's line holds this one request (booked once its run ended).
    await expect
      .poll(async () => costRows(await consolePage(running as InProcessTeam, '/costs')).length, {
        timeout: 10_000,
      })
      .toBe(3);
    const day = costRows(await consolePage(running, '/costs'));
    // Tokens: the scripts' usage, per agent and summed; every figure of the total is the agents' sum.
    expect(day.map((row) => row.slice(0, 3))).toEqual([
      ['supervisor', 230, 16],
      ['weather', 90, 13],
      ['Total', 320, 29],
    ]);
    const [supervisor, weather, total] = day;
    for (let figure = 1; figure <= 6; figure++)
      expect(total?.[figure]).toBe(Number(supervisor?.[figure]) + Number(weather?.[figure]));
    expect(total?.[6]).toBe(2);
    // The delegation's tool time holds the weather worker's whole run.
    expect(Number(supervisor?.[4])).toBeGreaterThanOrEqual(Number(weather?.[3]) + Number(weather?.[4]));
    const costs = await consolePage(running, '/costs?days=7');
    expect(costs).toMatch(/<h2>\d{4}-\d{2}-\d{2} · 1 request<\/h2>/);
    expect(costs).toContain('href="/console/costs">Costs</a>');

    // On Redis the console lists requests: the request's own page shows the same numbers, from its task.
    if (redis) expect(costRows(await consolePage(running, `/requests/${reply.taskId}`))).toEqual(day);
  }, 60_000);
});
