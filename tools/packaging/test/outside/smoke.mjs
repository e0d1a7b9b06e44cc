// Run by test/installed-packages.test.ts inside a project outside the repository that installed the
// packed tarballs: it imports the packages by name, as a user would, hosts an agent with one tool over
// HTTP and asks it one question with the SDK's client. It prints one line of JSON and exits.
import { ClientFactory } from '@a2a-js/sdk/client';
import { defineAgent, defineTool } from '@switchboard/agent';
import { hostAgent } from '@switchboard/host';
import { OfflineModel } from '@switchboard/offline-model';
import { readMessage, replyTextOf, sendMessageRequest, userMessage } from '@switchboard/protocol';
import { runAgentService } from '@switchboard/service';
import { defineTeam } from '@switchboard/team';
import { z } from 'zod';

const getOrder = defineTool({
  name: 'get_order',
  summary: 'Look up an order by its id: status and carrier.',
  whenToUse: 'The user asks about the status or shipping of an order.',
  input: z.object({ orderId: z.string().regex(/^A\d{5}$/) }),
  risk: 'read',
  handler: ({ orderId }) => ({ orderId, status: 'shipped', carrier: 'DHL' }),
});
const agent = defineAgent({ name: 'shop', instructions: 'Help with orders.', tools: [getOrder] });
const host = await hostAgent({ agent, model: new OfflineModel(), http: { host: '127.0.0.1' } });
try {
  await host.start();
  const client = await new ClientFactory().createFromUrl(host.url);
  const result = await client.sendMessage(
    sendMessageRequest({ message: userMessage({ text: 'Where is my order A10086?' }) }),
  );
  process.stdout.write(
    `${JSON.stringify({
      node: process.version,
      answer: 'status' in result ? replyTextOf(result) : readMessage(result).text,
      state: 'status' in result ? result.status?.state : undefined,
      service: typeof runAgentService,
      team: typeof defineTeam,
    })}\n`,
  );
} finally {
  await host.close();
}
