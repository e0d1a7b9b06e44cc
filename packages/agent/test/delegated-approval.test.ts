import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentState,
  type ApprovalDecision,
  argumentsHash,
  defineAgent,
  defineTool,
  MemoryAuditSink,
  runAgent,
} from '../src/index.ts';
import { ScriptedModel } from '../src/testing/index.ts';

/** The hash of the arguments of the delegate's waiting call. */
const WORKER_HASH = argumentsHash({ orderId: 'A10086' });

/** A supervisor's delegation tool: the delegate stops for an approval, which is handed on to a human. */
function supervisor() {
  const handed: ApprovalDecision[] = [];
  const askOrders = defineTool({
    name: 'ask_orders',
    summary: 'Hand a request to the orders agent.',
    whenToUse: 'Anything about an order.',
    input: z.object({ request: z.string() }),
    risk: 'read',
    handler: (_input, context) => {
      if (context.approval) {
        handed.push(context.approval.decision);
        return context.approval.decision.decision === 'approved'
          ? { answer: 'Order A10086 was refunded: 59.90 EUR.' }
          : { answer: 'The refund of A10086 was not done: the operator declined it.' };
      }
      return context.waitForApproval({
        id: 'apr_worker0000001',
        agent: 'orders',
        tool: 'refund_order',
        action: 'Refund order A10086 in full (59.90 EUR)',
        arguments: { orderId: 'A10086' },
        argumentsHash: WORKER_HASH,
        reversible: false,
        repeatable: false,
        text: 'The orders agent wants to: Refund order A10086 in full (59.90 EUR). This cannot be undone.',
        requestedAt: '2026-11-30T10:00:00Z',
        delegate: { agent: 'orders', taskId: 'task-7', contextId: 'ctx-7' },
      });
    },
  });
  const agent = defineAgent({ name: 'supervisor', instructions: 'Delegate.', tools: [askOrders] });
  const model = () =>
    new ScriptedModel({
      turns: [],
      whenExhausted: (request) => {
        const last = request.messages.at(-1);
        if (last?.role === 'user')
          return { toolCalls: [{ name: 'ask_orders', arguments: { request: last.content } }] };
        return { text: `Done: ${last?.role === 'tool' ? last.content : ''}` };
      },
    });
  return { agent, model, handed };
}

const decision = (verdict: 'approved' | 'denied', hash = WORKER_HASH): ApprovalDecision => ({
  approvalId: 'apr_worker0000001',
  decision: verdict,
  argumentsHash: hash,
  decidedBy: 'op-ada',
  decidedAt: '2026-11-30T10:05:00Z',
});

describe('an approval asked for by a delegate', () => {
  it('is not asked when the quota refuses it: the call fails with the quota’s words, and nothing waits', async () => {
    const { agent, model } = supervisor();
    const asked: string[] = [];
    const result = await runAgent({
      agent,
      model: model(),
      input: 'Refund A10086 please',
      approvalQuota: {
        admit: (request) => {
          asked.push(request.id);
          return { message: '20 approvals already wait for this user.', hint: 'Say it was not done.' };
        },
      },
    });
    expect(asked).toEqual(['apr_worker0000001']);
    expect(result.stopReason).toBe('model');
    expect(result.pendingApprovals).toEqual([]);
    expect(result.output).toContain('TOO_MANY_APPROVALS');
    expect(result.output).toContain('20 approvals already wait for this user.');
  });

  it('stops the run with the delegate’s request, then hands the decision on when resumed', async () => {
    const { agent, model, handed } = supervisor();
    const audit = new MemoryAuditSink();
    const first = await runAgent({ agent, model: model(), input: 'Refund A10086 please', audit });
    expect(first.stopReason).toBe('approval');
    expect(first.output).toContain('Refund order A10086 in full (59.90 EUR)');
    expect(first.pendingApprovals).toEqual([
      expect.objectContaining({
        id: 'apr_worker0000001',
        agent: 'orders',
        conversationId: first.conversationId,
        toolCallId: first.toolCalls[0]?.callId,
        delegate: { agent: 'orders', taskId: 'task-7', contextId: 'ctx-7' },
      }),
    ]);
    expect(first.toolCalls.map((call) => call.status)).toEqual(['awaiting_approval']);

    const stored = JSON.parse(JSON.stringify({ messages: first.messages, state: first.state }));
    const waiting = await runAgent({
      agent,
      model: model(),
      history: stored.messages,
      state: AgentState.parse(stored.state),
    });
    expect(waiting.stopReason).toBe('approval');
    expect(handed).toEqual([]);

    const resumed = await runAgent({
      agent,
      model: model(),
      history: stored.messages,
      state: AgentState.parse(stored.state),
      decisions: [decision('approved')],
      audit,
    });
    expect(resumed.stopReason).toBe('model');
    expect(resumed.output).toContain('Order A10086 was refunded');
    expect(handed.map((d) => [d.decision, d.decidedBy, d.argumentsHash])).toEqual([
      ['approved', 'op-ada', WORKER_HASH],
    ]);
    expect(resumed.pendingApprovals).toEqual([]);
    expect(audit.records.filter((r) => r.kind === 'approval_decision')).toEqual([
      expect.objectContaining({ approvalId: 'apr_worker0000001', tool: 'refund_order', decidedBy: 'op-ada' }),
    ]);
  });

  it('a denial is handed on too, and the answer says it was not done', async () => {
    const { agent, model, handed } = supervisor();
    const first = await runAgent({ agent, model: model(), input: 'Refund A10086 please' });
    const resumed = await runAgent({
      agent,
      model: model(),
      history: first.messages,
      state: first.state,
      decisions: [decision('denied')],
    });
    expect(handed.map((d) => d.decision)).toEqual(['denied']);
    expect(resumed.output).toContain('was not done');
  });

  it('an approval of other arguments than the delegate asked for is not handed on', async () => {
    const { agent, model, handed } = supervisor();
    const first = await runAgent({ agent, model: model(), input: 'Refund A10086 please' });
    const resumed = await runAgent({
      agent,
      model: model(),
      history: first.messages,
      state: first.state,
      decisions: [decision('approved', argumentsHash({ orderId: 'A10001' }))],
    });
    expect(handed).toEqual([]);
    expect(resumed.stopReason).toBe('approval');
    expect(resumed.output).toContain('The approved action differs from the one now requested');
    expect(resumed.pendingApprovals).toMatchObject([{ id: 'apr_worker0000001', argumentsHash: WORKER_HASH }]);
  });

  it('a new message instead of a decision withdraws the waiting call', async () => {
    const { agent, model, handed } = supervisor();
    const first = await runAgent({ agent, model: model(), input: 'Refund A10086 please' });
    const next = await runAgent({
      agent,
      model: new ScriptedModel({ turns: [{ text: 'Fine, no refund then.' }] }),
      history: first.messages,
      state: first.state,
      input: 'Actually, forget the refund.',
    });
    expect(next.stopReason).toBe('model');
    expect(next.pendingApprovals).toEqual([]);
    expect(handed).toEqual([]);
    expect(next.toolCalls.map((call) => call.errorCode)).toEqual(['CANCELED']);
  });
});
