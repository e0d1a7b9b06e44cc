import { type Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext, type User } from '@a2a-js/sdk/server';
import { defineAgent, defineTool, MemoryAuditSink, ToolRouter } from '@switchboard/agent';
import { OfflineModel } from '@switchboard/offline-model';
import { replyTextOf } from '@switchboard/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildAgentCard, createAgentHandler } from '../src/index.ts';
import { sendRequest, userMessage } from './support/messages.ts';

const as = (userName: string): ServerCallContext =>
  new ServerCallContext({
    requestedVersion: '1.0',
    user: { isAuthenticated: true, userName } satisfies User,
  });

function lookup(name: string, summary: string, whenToUse: string) {
  return defineTool({
    name,
    summary,
    whenToUse,
    input: z.object({ orderId: z.string().optional() }),
    risk: 'read',
    handler: () => ({ answeredBy: name }),
  });
}

function host() {
  const audit = new MemoryAuditSink();
  const agent = defineAgent({
    name: 'shop',
    instructions: 'You help the shop’s customers.',
    tools: [
      lookup(
        'get_order',
        'Look up an order: its status, items and total.',
        'The customer asks what state an order is in.',
      ),
      lookup(
        'cancel_order',
        'Cancel an order that has not shipped.',
        'The customer wants to cancel an order.',
      ),
      lookup(
        'track_shipment',
        'Track the parcel of a shipped order.',
        'The customer asks where the parcel or package is.',
      ),
    ],
  });
  const card = buildAgentCard({
    agent,
    interfaces: [{ url: 'http://127.0.0.1:1/a2a/jsonrpc', protocolBinding: 'JSONRPC' }],
  });
  const router = new ToolRouter({ topK: 2 });
  const hosted = createAgentHandler({
    agent,
    model: new OfflineModel(),
    card,
    audit,
    router,
    ownerResolver: () => 'c1',
  });
  return { hosted, audit };
}

describe('a hosted agent with a tool router', () => {
  it('asks which tool is meant (input-required) instead of guessing, and acts on the answer', async () => {
    const { hosted, audit } = host();
    const asked = (await hosted.requestHandler.sendMessage(
      sendRequest(userMessage('something about my order', { contextId: 'ctx-route' })),
      as('ada'),
    )) as Task;
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(replyTextOf(asked)).toMatch(/not sure which/);
    expect(audit.records).toEqual([]);
    const answered = (await hosted.requestHandler.sendMessage(
      sendRequest(
        userMessage('the status of it please, A10086', { contextId: 'ctx-route', taskId: asked.id }),
      ),
      as('ada'),
    )) as Task;
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(audit.records.map((record) => ('tool' in record ? record.tool : undefined))).toEqual([
      'get_order',
    ]);
  });

  it('completes saying plainly what it cannot do when no tool fits, calling none', async () => {
    const { hosted, audit } = host();
    const task = (await hosted.requestHandler.sendMessage(
      sendRequest(userMessage('book me a flight to Lisbon', { contextId: 'ctx-flight' })),
      as('ada'),
    )) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(replyTextOf(task)).toMatch(/^I cannot help with that/);
    expect(audit.records).toEqual([]);
  });
});
