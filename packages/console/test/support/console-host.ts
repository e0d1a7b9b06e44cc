// A host with an approval board and the console at /console: an agent whose one dangerous tool sends
// an email, a scripted model that asks to send the email the test says, and tokens of both kinds.
import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { defineAgent, defineTool, silentLogger } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { type CostBook, type HostStores, hostAgent } from '@switchboard/host';
import { actingForOwner, MemoryApprovalBoard } from '@switchboard/host/approvals';
import { sendMessageRequest, userMessage } from '@switchboard/protocol';
import { z } from 'zod';
import { type AgentRecords, type ConsoleOptions, consoleRoutes } from '../../src/index.ts';

export const USER_TOKEN = 'user-token-0123456789abcdef';
export const OPERATOR_TOKEN = 'operator-token-0123456789abcdef';

/** An email the model will ask to send. */
export interface Email {
  to: string;
  subject: string;
  body: string;
}

export async function startConsoleHost({
  email,
  secureCookie,
  stores,
  agents,
  pages = {},
  costBook,
}: {
  email: Email;
  secureCookie?: boolean;
  /** The team's other agents' tasks, for the requests pages. */
  agents?: AgentRecords;
  /** The host's task store and the operators' directory over it (default: in memory, no directory). */
  stores?: HostStores;
  /** What the trace, shadow and evals pages read. */
  pages?: Pick<ConsoleOptions, 'trace' | 'shadow' | 'evals'>;
  costBook?: CostBook;
}) {
  const sent: Email[] = [];
  const sendEmail = defineTool({
    name: 'send_email',
    summary: 'Send an email for the user. A human approves it first.',
    whenToUse: 'The user asks to send an email.',
    input: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
    risk: 'dangerous',
    idempotent: false,
    describeForApproval: ({ to, subject, body }) => ({
      action: `Send the email “${subject}” to ${to}`,
      details: body,
      reversible: false,
    }),
    handler: (input) => {
      sent.push(input);
      return { sent: true };
    },
  });
  const board = new MemoryApprovalBoard();
  const host = await hostAgent({
    agent: defineAgent({ name: 'mailer', instructions: 'Send emails.', tools: [sendEmail] }),
    model: new ScriptedModel({
      turns: [{ toolCalls: [{ name: 'send_email', arguments: { ...email } }] }],
      whenExhausted: () => ({ text: 'Sent.' }),
    }),
    logger: silentLogger(),
    http: {
      host: '127.0.0.1',
      operatorRoutes: [
        consoleRoutes({
          ...(secureCookie === undefined ? {} : { secureCookie }),
          ...(agents ? { agents } : {}),
          ...pages,
          ...(costBook ? { costBook } : {}),
        }),
      ],
    },
    auth: { tokens: { users: { [USER_TOKEN]: 'u-1' }, operators: { [OPERATOR_TOKEN]: 'ada' } } },
    approvals: board,
    ownerResolver: actingForOwner(),
    ...(stores ? { stores } : {}),
  });
  await host.start();
  const client = await new ClientFactory({
    transports: [
      new JsonRpcTransportFactory({
        fetchImpl: (input, init) => {
          const headers = new Headers(init?.headers);
          headers.set('Authorization', `Bearer ${USER_TOKEN}`);
          return fetch(input, { ...init, headers });
        },
      }),
    ],
  }).createFromUrl(host.url);
  return {
    url: host.url,
    consoleUrl: `${host.url}/console`,
    board,
    sent,
    /** The user asks, in their own words; the task then waits for the approval. */
    ask: (text: string) => client.sendMessage(sendMessageRequest({ message: userMessage({ text }) })),
    close: () => host.close(),
  };
}
