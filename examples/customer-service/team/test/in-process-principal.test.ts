import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { type AnyTool, type Principal, silentLogger, type ToolContext } from '@switchboard/agent';
import { sendMessageRequest, userMessage } from '@switchboard/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { type InProcessShop, startTeamInMemory } from '../src/in-process-team.ts';
import customerServiceTeam from '../src/team.ts';

let system: InProcessShop | undefined;
afterEach(async () => {
  await system?.stop();
  system = undefined;
});

describe('the in-process system (A2A over HTTP, no queue)', () => {
  it('runs a worker’s tools as the customer who asked, via the supervisor, from its signed assertion', async () => {
    const seen: { agent: string; tool: string; principal: Principal | undefined }[] = [];
    const record = (agent: string, tool: AnyTool): AnyTool => ({
      ...tool,
      handler: (input: unknown, context: ToolContext) => {
        seen.push({ agent, tool: tool.name, principal: context.principal });
        return tool.handler(input, context);
      },
    });
    system = await startTeamInMemory(customerServiceTeam, { port: 0, logger: silentLogger(), tool: record });
    const { access } = system;
    const asCustomer: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('Authorization', `Bearer ${access.token}`);
      return fetch(input, { ...init, headers });
    };
    const client = await new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl: asCustomer })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: asCustomer }),
    }).createFromUrl(access.supervisorUrl);
    await client.sendMessage(
      sendMessageRequest({ message: userMessage({ text: 'Where is my order A10086?' }) }),
    );
    const orders = seen.filter((entry) => entry.agent === 'orders');
    expect(orders.length).toBeGreaterThan(0);
    for (const entry of orders) {
      expect(entry.principal).toEqual({
        id: access.userId,
        kind: 'user',
        roles: [],
        via: ['supervisor'],
      });
    }
  });
});
