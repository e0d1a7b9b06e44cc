import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AnyTool,
  type ApprovalRequest,
  argumentsHash,
  CredentialVault,
  createAgentState,
  decisionFor,
  defineTool,
  MemoryAuditSink,
  MemoryIntentStore,
  type ToolCall,
  ToolRunner,
  type ToolRunnerOptions,
  Toolset,
} from '../src/index.ts';
import { MemoryLogger, RecordingTracer } from '../src/testing/index.ts';
import { getOrder, refundTool } from './support/shop-tools.ts';

function setup(tools: AnyTool[], overrides: Partial<ToolRunnerOptions> = {}) {
  const toolset = new Toolset(tools);
  const logger = new MemoryLogger();
  const tracer = new RecordingTracer();
  const audit = new MemoryAuditSink();
  const state = createAgentState({ agent: 'orders', conversationId: 'conv-1' });
  const runner = new ToolRunner({
    agent: 'orders',
    conversationId: 'conv-1',
    toolset,
    permitted: new Set(toolset.names),
    state,
    vault: new CredentialVault(),
    intents: new MemoryIntentStore(),
    audit,
    tracer,
    logger,
    decisions: new Map(),
    signal: new AbortController().signal,
    retryDelayMs: 1,
    ...overrides,
  });
  return { runner, logger, tracer, audit, state };
}

function call(name: string, args: unknown, id = 'call_1'): ToolCall {
  return {
    id,
    type: 'function',
    function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
  };
}

async function settle(runner: ToolRunner, toolCall: ToolCall) {
  const outcome = await runner.run(toolCall, 1);
  if (outcome.kind !== 'settled') throw new Error(`expected a settled call, got ${outcome.kind}`);
  return outcome;
}

describe('the executor gives each failure its own code', () => {
  it('runs a valid call and returns the data in the ok envelope', async () => {
    const { runner } = setup([getOrder]);
    const outcome = await settle(runner, call('get_order', { orderId: 'A10086' }));
    expect(JSON.parse(outcome.message.content)).toEqual({
      ok: true,
      data: { status: 'shipped', carrier: 'DHL', total: 59.9 },
    });
    expect(outcome.message.tool_call_id).toBe('call_1');
  });

  it('unknown tool: names the tools that exist', async () => {
    const { runner } = setup([getOrder]);
    const { envelope } = await settle(runner, call('delete_everything', {}));
    expect(envelope).toEqual({
      ok: false,
      error: {
        code: 'UNKNOWN_TOOL',
        message: 'There is no tool named "delete_everything".',
        hint: 'Use one of: get_order.',
      },
    });
  });

  it('arguments that are not JSON', async () => {
    const { runner } = setup([getOrder]);
    const { envelope, record } = await settle(runner, call('get_order', '{"orderId": A10086'));
    expect(envelope.ok || envelope.error.code).toBe('INVALID_JSON');
    expect(record.argumentsValid).toBe(false);
  });

  it('arguments that fail the schema get an actionable message', async () => {
    const { runner } = setup([getOrder]);
    const { envelope } = await settle(runner, call('get_order', { orderId: '10086' }));
    expect(envelope.ok).toBe(false);
    if (envelope.ok) return;
    expect(envelope.error.code).toBe('INVALID_ARGUMENTS');
    expect(envelope.error.message).toContain('orderId must be the letter A and 5 digits, e.g. A10086');
    expect(envelope.error.hint).toMatch(/call get_order again/);
  });

  it('a tool outside the permission set is denied and its handler never runs', async () => {
    let ran = false;
    const wipe = defineTool({
      name: 'wipe_cache',
      summary: 'Wipe the cache.',
      whenToUse: 'Never by customers.',
      input: z.object({}),
      risk: 'write',
      handler: () => {
        ran = true;
      },
    });
    const { runner, audit } = setup([getOrder, wipe], { permitted: new Set(['get_order']) });
    const { envelope } = await settle(runner, call('wipe_cache', {}));
    expect(envelope.ok || envelope.error.code).toBe('PERMISSION_DENIED');
    expect(ran).toBe(false);
    expect(audit.records[0]).toMatchObject({ kind: 'tool_call', tool: 'wipe_cache', status: 'refused' });
  });

  it('a handler that hangs times out with its own code', async () => {
    const slow = defineTool({
      name: 'slow_lookup',
      summary: 'A lookup that hangs.',
      whenToUse: 'Tests.',
      input: z.object({}),
      risk: 'read',
      timeoutMs: 30,
      handler: () => new Promise(() => {}),
    });
    const { runner } = setup([slow]);
    const { envelope } = await settle(runner, call('slow_lookup', {}));
    expect(envelope.ok || envelope.error.code).toBe('TIMEOUT');
  });

  it('a dangerous tool without a decision waits for approval, and does not run', async () => {
    const counter = { runs: 0 };
    const { runner, state } = setup([refundTool(counter)]);
    const outcome = await runner.run(call('refund_order', { orderId: 'A10086' }), 1);
    expect(outcome.kind).toBe('awaiting_approval');
    if (outcome.kind !== 'awaiting_approval') return;
    expect(outcome.request.text).toBe(
      'The orders agent wants to: Refund order A10086 in full (59.9 EUR). This cannot be undone. ' +
        'It will run at most once, even if the request is retried.',
    );
    expect(outcome.request.text).not.toContain('{');
    expect(counter.runs).toBe(0);
    expect(state.pendingApprovals.map((request) => request.id)).toEqual([outcome.request.id]);
    expect(state.slots.pending).toEqual({ orderId: 'A10086' });
  });
});

describe('approvers', () => {
  it('an approver that throws leaves the call waiting; it never runs', async () => {
    const counter = { runs: 0 };
    const approver = {
      decide: () => {
        throw new Error('approvals service down');
      },
    };
    const { runner, logger } = setup([refundTool(counter)], { approver });
    const outcome = await runner.run(call('refund_order', { orderId: 'A10086' }), 1);
    expect(outcome.kind).toBe('awaiting_approval');
    expect(counter.runs).toBe(0);
    expect(logger.entries.map((entry) => entry.message)).toContain('approver failed; the call waits');
  });

  it('a dangerous tool whose approval text cannot be written fails with its fallback and never runs', async () => {
    const counter = { runs: 0 };
    const refund = defineTool({
      ...refundTool(counter),
      describeForApproval: () => {
        throw new Error('orders database unreachable');
      },
    });
    const approveAll = {
      decide: (request: ApprovalRequest) => decisionFor({ request, decision: 'approved', decidedBy: 'op-1' }),
    };
    const { runner, logger, state } = setup([refund], { approver: approveAll });
    const outcome = await settle(runner, call('refund_order', { orderId: 'A10086' }));
    expect(outcome.envelope).toEqual({
      ok: false,
      error: { code: 'TOOL_FAILED', message: refund.fallbackMessage },
    });
    expect(outcome.message.content).not.toContain('orders database');
    expect(counter.runs).toBe(0);
    expect(state.pendingApprovals).toEqual([]);
    expect(logger.entries.map((entry) => entry.message)).toContain('describeForApproval failed');
  });

  it('a decision for another approval id does not approve this call', async () => {
    const counter = { runs: 0 };
    const approver = {
      decide: (request: ApprovalRequest) =>
        decisionFor({ request: { ...request, id: 'apr_other' }, decision: 'approved', decidedBy: 'op' }),
    };
    const { runner } = setup([refundTool(counter)], { approver });
    const outcome = await runner.run(call('refund_order', { orderId: 'A10086' }), 1);
    expect(outcome.kind).toBe('awaiting_approval');
    expect(counter.runs).toBe(0);
  });

  it('an approval for other arguments is refused and audited; the request waits with what is asked now', async () => {
    const counter = { runs: 0 };
    const approver = {
      decide: (request: ApprovalRequest) =>
        decisionFor({
          request: { ...request, argumentsHash: argumentsHash({ orderId: 'A10001' }) },
          decision: 'approved',
          decidedBy: 'op-ada',
        }),
    };
    const { runner, audit, state } = setup([refundTool(counter)], { approver });
    const outcome = await runner.run(call('refund_order', { orderId: 'A10086' }), 1);
    expect(counter.runs).toBe(0);
    expect(outcome).toMatchObject({ kind: 'awaiting_approval', mismatch: true });
    expect(state.pendingApprovals).toMatchObject([
      { arguments: { orderId: 'A10086' }, argumentsHash: argumentsHash({ orderId: 'A10086' }) },
    ]);
    expect(audit.records.filter((record) => record.kind !== 'tool_call')).toEqual([
      expect.objectContaining({
        kind: 'approval_mismatch',
        decidedBy: 'op-ada',
        approvedHash: argumentsHash({ orderId: 'A10001' }),
        requestedHash: argumentsHash({ orderId: 'A10086' }),
      }),
    ]);
  });

  it('a request shows every validated argument with the vault’s secrets redacted, and binds them by hash', async () => {
    const notify = defineTool({
      name: 'notify_partner',
      summary: 'Send a note to a partner system.',
      whenToUse: 'Tests.',
      input: z.object({ partner: z.string(), note: z.string(), priority: z.number().default(1) }),
      risk: 'dangerous',
      describeForApproval: ({ partner }) => ({ action: `Send a note to ${partner}`, reversible: false }),
      handler: () => ({ sent: true }),
    });
    const { runner } = setup([notify], {
      vault: new CredentialVault({ values: { PARTNER_KEY: 'pk-live-123456' } }),
    });
    const outcome = await runner.run(
      call('notify_partner', { note: 'key pk-live-123456', partner: 'acme' }),
      1,
    );
    if (outcome.kind !== 'awaiting_approval') throw new Error('expected the call to wait');
    expect(outcome.request.arguments).toEqual({ partner: 'acme', note: 'key [REDACTED]', priority: 1 });
    // The hash is of the validated arguments themselves (defaults applied), in any key order.
    expect(outcome.request.argumentsHash).toBe(
      argumentsHash({ priority: 1, partner: 'acme', note: 'key pk-live-123456' }),
    );
  });
});

describe('what the model sees of a failure is ours', () => {
  const leaky = defineTool({
    name: 'get_invoice',
    summary: 'Fetch an invoice.',
    whenToUse: 'The user asks for an invoice.',
    input: z.object({ orderId: z.string() }),
    risk: 'read',
    fallbackMessage: 'The invoice service is unavailable right now. Offer to email the invoice later.',
    handler: () => {
      throw new Error('connect ECONNREFUSED billing-db.internal.example:5432 (user svc_billing_prod)');
    },
  });

  it('a handler error with hostname, port and account name never reaches the model or the span', async () => {
    const { runner, logger, tracer } = setup([leaky]);
    const outcome = await settle(runner, call('get_invoice', { orderId: 'A10086' }));
    for (const leak of ['billing-db', '5432', 'svc_billing_prod', 'ECONNREFUSED']) {
      expect(outcome.message.content).not.toContain(leak);
      expect(JSON.stringify(tracer.spans)).not.toContain(leak);
    }
    expect(outcome.envelope).toEqual({
      ok: false,
      error: {
        code: 'TOOL_FAILED',
        message: 'The invoice service is unavailable right now. Offer to email the invoice later.',
      },
    });
    const logged = logger.entries.find((entry) => entry.level === 'error');
    expect(logged?.fields.err).toBeInstanceOf(Error);
    expect(String((logged?.fields.err as Error | undefined)?.message)).toContain(
      'billing-db.internal.example:5432',
    );
    expect(tracer.spans[0]?.error).toEqual({
      type: 'TOOL_FAILED',
      message: outcome.envelope.ok ? '' : outcome.envelope.error.message,
    });
  });
});

describe('retries', () => {
  function flaky(options: { idempotent: boolean; retries: number }) {
    const state = { attempts: 0 };
    const tool = defineTool({
      name: 'flaky',
      summary: 'Fails twice, then works.',
      whenToUse: 'Tests.',
      input: z.object({}),
      risk: 'write',
      ...options,
      handler: () => {
        state.attempts++;
        if (state.attempts < 3) throw new Error('transient');
        return { done: true };
      },
    });
    return { tool, state };
  }

  it('an idempotent tool is retried with backoff up to its limit', async () => {
    const { tool, state } = flaky({ idempotent: true, retries: 2 });
    const { runner, audit } = setup([tool]);
    const outcome = await settle(runner, call('flaky', {}));
    expect(outcome.envelope.ok).toBe(true);
    expect(state.attempts).toBe(3);
    expect(audit.records[0]).toMatchObject({ status: 'succeeded', retries: 2 });
  });

  it('a non-idempotent tool is never retried automatically', async () => {
    const { tool, state } = flaky({ idempotent: false, retries: 0 });
    const { runner } = setup([tool]);
    const outcome = await settle(runner, call('flaky', {}));
    expect(outcome.envelope.ok).toBe(false);
    expect(state.attempts).toBe(1);
  });
});

describe('non-idempotent actions never run twice', () => {
  it('the same refund asked again in the conversation is not run again, even from another runner', async () => {
    const counter = { runs: 0 };
    const refund = refundTool(counter);
    const intents = new MemoryIntentStore();
    const approveAll = {
      decide: (request: ApprovalRequest) => decisionFor({ request, decision: 'approved', decidedBy: 'op-1' }),
    };
    const first = setup([refund], { intents, approver: approveAll });
    const replica = setup([refund], { intents, approver: approveAll });
    const a = await settle(first.runner, call('refund_order', { orderId: 'A10086' }, 'call_a'));
    const b = await settle(replica.runner, call('refund_order', { orderId: 'A10086' }, 'call_b'));
    expect(counter.runs).toBe(1);
    expect(a.envelope).toEqual({ ok: true, data: { refunded: 'A10086' } });
    expect(b.envelope).toEqual(a.envelope);
    expect(b.record.replayed).toBe(true);
    expect(replica.audit.records.find((r) => r.kind === 'tool_call')).toMatchObject({ status: 'suppressed' });
  });

  it('an action whose outcome is unknown (timed out) is suppressed, not repeated', async () => {
    let runs = 0;
    const charge = defineTool({
      name: 'charge_card',
      summary: 'Charge a card.',
      whenToUse: 'Tests.',
      input: z.object({ amount: z.number() }),
      risk: 'write',
      timeoutMs: 20,
      handler: () => {
        runs++;
        return new Promise(() => {});
      },
    });
    const { runner, state } = setup([charge]);
    const first = await settle(runner, call('charge_card', { amount: 5 }, 'c1'));
    const second = await settle(runner, call('charge_card', { amount: 5 }, 'c2'));
    expect(first.envelope.ok || first.envelope.error.code).toBe('TIMEOUT');
    expect(second.envelope.ok || second.envelope.error.code).toBe('DUPLICATE_SUPPRESSED');
    expect(runs).toBe(1);
    expect(state.toolLog[0]?.intent).toBe('unknown');
  });
});

describe('results the model cannot read', () => {
  it('a result that is not JSON gets the fallback, and the action is not repeated', async () => {
    let runs = 0;
    const charge = defineTool({
      name: 'charge_card',
      summary: 'Charge a card.',
      whenToUse: 'Tests.',
      input: z.object({ amount: z.number() }),
      risk: 'write',
      fallbackMessage: 'The payment service did not answer clearly. Tell the user an operator will check.',
      handler: () => {
        runs++;
        return { charged: 5n };
      },
    });
    const { runner, logger } = setup([charge]);
    const first = await settle(runner, call('charge_card', { amount: 5 }, 'c1'));
    const second = await settle(runner, call('charge_card', { amount: 5 }, 'c2'));
    expect(first.envelope).toEqual({
      ok: false,
      error: { code: 'TOOL_FAILED', message: charge.fallbackMessage },
    });
    expect(second.envelope.ok || second.envelope.error.code).toBe('DUPLICATE_SUPPRESSED');
    expect(runs).toBe(1);
    expect(logger.entries.map((entry) => entry.message)).toContain('tool result is not JSON-serialisable');
  });
});

describe('credentials', () => {
  it('are injected into the handler and scrubbed from what the model sees', async () => {
    const key = 'pk_live_9f8e7d6c5b4a3210';
    const echo = defineTool({
      name: 'payment_status',
      summary: 'Ask the payment provider for a status.',
      whenToUse: 'Tests.',
      input: z.object({}),
      risk: 'read',
      credentials: ['PAYMENTS_KEY'],
      handler: (_input, { credentials }) => ({
        status: 'ok',
        debug: `called with ${credentials.get('PAYMENTS_KEY')}`,
      }),
    });
    const { runner, audit } = setup([echo], {
      vault: new CredentialVault({ values: { PAYMENTS_KEY: key } }),
    });
    const outcome = await settle(runner, call('payment_status', {}));
    expect(outcome.envelope).toEqual({ ok: true, data: { status: 'ok', debug: 'called with [REDACTED]' } });
    expect(JSON.stringify(audit.records)).not.toContain(key);
  });

  it('a tool reading a credential it did not declare fails without exposing anything', async () => {
    const sneaky = defineTool({
      name: 'sneaky',
      summary: 'Reads a secret it did not declare.',
      whenToUse: 'Tests.',
      input: z.object({}),
      risk: 'read',
      handler: (_input, { credentials }) => credentials.get('PAYMENTS_KEY'),
    });
    const { runner, logger } = setup([sneaky], {
      vault: new CredentialVault({ values: { PAYMENTS_KEY: 'pk_live_abcdef123456' } }),
    });
    const outcome = await settle(runner, call('sneaky', {}));
    expect(outcome.envelope.ok).toBe(false);
    expect(outcome.message.content).not.toContain('pk_live');
    expect(JSON.stringify(logger.entries.map((e) => (e.fields.err as Error).message))).toContain(
      'without declaring it',
    );
  });
});

describe('audit', () => {
  it('records every call with a redacted argument summary, timing and status', async () => {
    const login = defineTool({
      name: 'login',
      summary: 'Log in.',
      whenToUse: 'Tests.',
      input: z.object({ user: z.string(), password: z.string() }),
      risk: 'write',
      handler: () => ({ ok: true }),
    });
    const { runner, audit } = setup([login]);
    await settle(runner, call('login', { user: 'ada', password: 'hunter2-secret' }));
    const [record] = audit.records;
    expect(record).toMatchObject({
      kind: 'tool_call',
      agent: 'orders',
      conversationId: 'conv-1',
      tool: 'login',
      risk: 'write',
      status: 'succeeded',
      retries: 0,
    });
    expect(record?.kind === 'tool_call' && record.argumentsSummary).toBe(
      '{"user":"ada","password":"[REDACTED]"}',
    );
    expect(record?.kind === 'tool_call' && typeof record.durationMs).toBe('number');
  });

  it('a sink that fails to write is logged, and the call still answers', async () => {
    const audit = {
      write: () => {
        throw new Error('audit store is full');
      },
    };
    const { runner, logger } = setup([getOrder], { audit });
    const outcome = await settle(runner, call('get_order', { orderId: 'A10086' }));
    expect(outcome.envelope.ok).toBe(true);
    expect(logger.entries.map((entry) => entry.message)).toContain('audit sink failed to write a record');
  });
});
