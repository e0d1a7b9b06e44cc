import type { AgentCard, Message, Part, SendMessageRequest, Task } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import type { OwnerResolver } from '@a2a-js/sdk/server';
import { type Agent, defineAgent, defineTool } from '@switchboard/agent';
import { MemoryLogger, ScriptedModel, type ScriptedModelOptions } from '@switchboard/agent/testing';
import type { StaticTokens } from '@switchboard/identity';
import { sendMessageRequest } from '@switchboard/protocol';
import { z } from 'zod';
import type { ApprovalBoard } from '../../src/approvals/approval-board.ts';
import type { ReadinessCheck, UnversionedCardShape } from '../../src/http.ts';
import type { RunStateStore } from '../../src/index.ts';
import { hostAgent } from '../../src/index.ts';
import { userMessage } from './messages.ts';
import { refundTool } from './refund-tool.ts';

/** The two HTTP bindings, as the card names them. */
export type HttpBinding = 'JSONRPC' | 'HTTP+JSON';

/** What the shop's tools did, for assertions. */
export interface ShopRecord {
  refunds: number;
  waitAborted: boolean;
  waitStarted: Promise<void>;
}

/**
 * The shop's tools as these tests need them. `@switchboard/customer-service/testing` has the same
 * stand-ins for the packages above the domain; hosting's own tests cannot import the domain (it sits
 * above hosting), so these few lines are written again here on purpose.
 */
// jscpd:ignore-start
function shopTools(record: ShopRecord, onWaitStarted: () => void) {
  const OrderId = z.string().regex(/^A\d{5}$/);
  const getOrder = defineTool({
    name: 'get_order',
    summary: 'Look up an order by its id: status and carrier.',
    whenToUse: 'The user asks about an order.',
    input: z.object({ orderId: OrderId }),
    risk: 'read',
    handler: ({ orderId }) => ({ orderId, status: 'shipped', carrier: 'DHL' }),
  });
  const refundOrder = refundTool({ onRefund: () => record.refunds++ });
  const waitForWarehouse = defineTool({
    name: 'wait_for_warehouse',
    summary: 'Wait until the warehouse confirms the parcel.',
    whenToUse: 'The user asks to wait for the warehouse.',
    input: z.object({ orderId: OrderId }),
    risk: 'read',
    timeoutMs: 25_000,
    handler: (_input, { signal }) =>
      new Promise((_resolve, reject) => {
        onWaitStarted();
        signal.addEventListener('abort', () => {
          record.waitAborted = true;
          reject(new Error('aborted'));
        });
      }),
  });
  return [getOrder, refundOrder, waitForWarehouse];
}
// jscpd:ignore-end

/** Options of {@link startHost}. */
export interface HostOptions extends Pick<ScriptedModelOptions, 'turns' | 'whenExhausted'> {
  auth?: StaticTokens;
  /** Where approvals wait; with it, operators decide them at `/admin/approvals`. */
  approvals?: ApprovalBoard;
  /** Where conversations are kept (default: in memory). */
  runState?: RunStateStore;
  ownerResolver?: OwnerResolver;
  readiness?: ReadinessCheck;
  /** What a card request without `A2A-Version` gets (default: hostAgent's, hybrid). */
  unversionedCard?: UnversionedCardShape;
  /** Signs the card before it is served. */
  signCard?: (card: AgentCard) => Promise<AgentCard>;
  /** How many approvals one user may have waiting (default: the host's). */
  maxPendingApprovals?: number;
  /** Repeat a completed task's answer in its final status (default: the artifact alone). */
  answerInStatus?: boolean;
}

/** An agent served on a loopback port by the real app, with the SDK's clients at hand. */
export interface Host {
  url: string;
  card: AgentCard;
  agent: Agent;
  model: ScriptedModel;
  shop: ShopRecord;
  logger: MemoryLogger;
  /** An SDK client for one binding, created from the well-known card, sending `token` if given. */
  client(binding: HttpBinding, token?: string): Promise<Client>;
  close(): Promise<void>;
}

/** Starts the shop agent over HTTP. */
export async function startHost({
  turns,
  whenExhausted,
  auth,
  approvals,
  runState,
  ownerResolver,
  readiness,
  unversionedCard,
  signCard,
  maxPendingApprovals,
  answerInStatus,
}: HostOptions): Promise<Host> {
  let onWaitStarted = () => {};
  const shop: ShopRecord = {
    refunds: 0,
    waitAborted: false,
    waitStarted: new Promise((resolve) => {
      onWaitStarted = resolve;
    }),
  };
  const agent = defineAgent({
    name: 'shop',
    instructions: 'Help with orders.',
    tools: shopTools(shop, () => onWaitStarted()),
  });
  const model = new ScriptedModel({ turns, ...(whenExhausted ? { whenExhausted } : {}) });
  const logger = new MemoryLogger();
  const host = await hostAgent({
    agent,
    model,
    logger,
    http: { ...(readiness ? { readiness } : {}), ...(unversionedCard ? { unversionedCard } : {}) },
    ...(signCard ? { signCard } : {}),
    ...(auth ? { auth: { tokens: auth } } : {}),
    ...(approvals ? { approvals } : {}),
    ...(runState ? { stores: { runState } } : {}),
    ...(ownerResolver ? { ownerResolver } : {}),
    ...(maxPendingApprovals ? { maxPendingApprovals } : {}),
    ...(answerInStatus ? { answerInStatus } : {}),
  });
  await host.start();
  return {
    url: host.url,
    card: host.card,
    agent,
    model,
    shop,
    logger,
    close: () => host.close(),
    async client(binding, token) {
      const fetchImpl: typeof fetch = (input, init) => {
        const headers = new Headers(init?.headers);
        if (token) headers.set('Authorization', `Bearer ${token}`);
        return fetch(input, { ...init, headers });
      };
      const transports =
        binding === 'JSONRPC'
          ? [new JsonRpcTransportFactory({ fetchImpl })]
          : [new RestTransportFactory({ fetchImpl })];
      const factory = new ClientFactory({
        transports,
        cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      });
      return factory.createFromUrl(host.url);
    },
  };
}

export { userMessage };

/** A blocking SendMessage request. */
export function send(message: Message): SendMessageRequest {
  return sendMessageRequest({ message });
}

/** The text of some parts, joined. */
export function partsText(parts: readonly Part[]): string {
  return parts.flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : [])).join('\n');
}

/** The text parts of a message, joined. */
export function textOf(message: Message | undefined): string {
  return partsText(message?.parts ?? []);
}

/** Sends a user message (as {@link userMessage} builds it) and returns the task it made. */
export async function sendTask(client: Client, ...args: Parameters<typeof userMessage>): Promise<Task> {
  const result = await client.sendMessage(send(userMessage(...args)));
  if (!('status' in result && 'id' in result)) throw new Error('expected a task, got a message');
  return result;
}

/** The data parts of a message. */
export function dataOf(message: Message | undefined): unknown[] {
  return (message?.parts ?? []).flatMap((part) =>
    part.content?.$case === 'data' ? [part.content.value] : [],
  );
}
