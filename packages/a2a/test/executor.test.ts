import { type Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext, type User } from '@a2a-js/sdk/server';
import { defineAgent } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { describe, expect, it } from 'vitest';
import { buildAgentCard, createHostedAgent } from '../src/index.ts';
import { sendRequest, userMessage } from './support/messages.ts';
import { refundTool } from './support/refund-tool.ts';

const as = (userName: string): ServerCallContext =>
  new ServerCallContext({
    requestedVersion: '1.0',
    user: { isAuthenticated: true, userName } satisfies User,
  });

function host() {
  const refunds = { count: 0 };
  const refund = refundTool({ onRefund: () => refunds.count++ });
  const agent = defineAgent({ name: 'orders', instructions: 'Orders.', tools: [refund] });
  const model = new ScriptedModel({
    turns: [],
    whenExhausted: (request) => {
      const last = request.messages.at(-1);
      if (last?.role === 'user' && last.content.includes('refund')) {
        return { toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A10086' } }] };
      }
      return {
        text: `I have seen ${request.messages.filter((m) => m.role === 'user').length} user message(s).`,
      };
    },
  });
  const card = buildAgentCard({
    agent,
    interfaces: [{ url: 'http://127.0.0.1:1/a2a/jsonrpc', protocolBinding: 'JSONRPC' }],
  });
  const hosted = createHostedAgent({
    agent,
    model,
    card,
    canApprove: (user) => user?.userName === 'operator',
    ownerResolver: () => 'shared',
  });
  return { hosted, model, refunds };
}

describe('the agent executor', () => {
  it('keeps conversations apart: another user reusing a contextId does not see the history', async () => {
    const { hosted, model } = host();
    const first = (await hosted.requestHandler.sendMessage(
      sendRequest(userMessage('my secret is 1234', { contextId: 'ctx-shared' })),
      as('alice'),
    )) as Task;
    expect(first.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await hosted.requestHandler.sendMessage(
      sendRequest(userMessage('hello', { contextId: 'ctx-shared' })),
      as('mallory'),
    );
    const malloryRequest = model.requests.at(-1);
    expect(JSON.stringify(malloryRequest?.messages)).not.toContain('1234');
    await hosted.requestHandler.sendMessage(
      sendRequest(userMessage('and again', { contextId: 'ctx-shared' })),
      as('alice'),
    );
    expect(JSON.stringify(model.requests.at(-1)?.messages)).toContain('my secret is 1234');
  });

  it('an operator’s decision sent with a comment resumes the customer’s conversation and runs the action once', async () => {
    const { hosted, refunds } = host();
    const waiting = (await hosted.requestHandler.sendMessage(
      sendRequest(userMessage('please refund A10086')),
      as('alice'),
    )) as Task;
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const data = waiting.status?.message?.parts.find((part) => part.content?.$case === 'data')?.content;
    const approvalId =
      data?.$case === 'data'
        ? (data.value as { pendingApprovals: { id: string }[] }).pendingApprovals[0]?.id
        : undefined;
    expect(approvalId).toMatch(/^apr_/);
    const done = (await hosted.requestHandler.sendMessage(
      sendRequest(
        userMessage('Approved, customer is a regular.', {
          taskId: waiting.id,
          contextId: waiting.contextId,
          data: { approvalDecision: { approvalId, decision: 'approved' } },
        }),
      ),
      as('operator'),
    )) as Task;
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(refunds.count).toBe(1);
  });
});
