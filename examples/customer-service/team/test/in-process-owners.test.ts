import { randomUUID } from 'node:crypto';
import { TaskState } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { silentLogger } from '@switchboard/agent';
import { sendMessageRequest, userMessage } from '@switchboard/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessShop, startTeamInMemory } from '../src/in-process-team.ts';
import customerServiceTeam from '../src/team.ts';

let system: InProcessShop;
beforeAll(async () => {
  system = await startTeamInMemory(customerServiceTeam, { port: 0, logger: silentLogger() });
});
afterAll(() => system?.stop());

/** A client of the supervisor as one customer of the fixture, with their static token. */
function clientAs(customerId: string): Promise<Client> {
  const token = system.access.users[customerId];
  if (!token) throw new Error(`the in-process system has no token for ${customerId}`);
  const fetchAs: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('Authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  return new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl: fetchAs })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl: fetchAs }),
  }).createFromUrl(system.access.supervisorUrl);
}

/** The supervisor's answer to one message, sent in `contextId`. */
async function ask(customerId: string, text: string, contextId: string): Promise<string> {
  const client = await clientAs(customerId);
  const task = await client.sendMessage(sendMessageRequest({ message: userMessage({ text, contextId }) }));
  if (!('status' in task)) throw new Error('expected a task');
  expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  return (task.artifacts[0]?.parts ?? [])
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join('');
}

describe('the whole system, two customers sending the same contextId', () => {
  it('the second never sees the first’s order: it is not on their account, and no conversation is shared', async () => {
    const contextId = `shared-${randomUUID()}`;
    const ada = await ask('C001', 'Where is my order A10086?', contextId);
    expect(ada).toContain('Stainless Steel Kettle');
    expect(ada).toContain('JJD000390007284961');
    const grace = await ask('C002', 'Where is my order A10086?', contextId);
    expect(grace).toContain('There is no order A10086 on your account');
    for (const adas of ['Stainless Steel Kettle', 'JJD000390007284961', 'Berlin', '59.90'])
      expect(grace).not.toContain(adas);
    // Grace still reads her own order, in the same context id.
    const own = await ask('C002', 'Where is my order A10087?', contextId);
    expect(own).toContain('Personal Blender');
    expect(own).not.toContain('Stainless Steel Kettle');
  });

  it('a customer cannot change another’s order through the supervisor', async () => {
    const before = await system.store.getOrder('A10087');
    const answer = await ask(
      'C001',
      'Please change the shipping address of order A10087 to name: Mallory, street: Elsewhere 1, postcode: 99999, city: Nowhere, country: DE',
      `attack-${randomUUID()}`,
    );
    expect(answer).toContain('There is no order A10087 on your account');
    expect(answer).not.toMatch(/Lyon|Blender|Grace/);
    expect(await system.store.getOrder('A10087')).toEqual(before);
  });
});
