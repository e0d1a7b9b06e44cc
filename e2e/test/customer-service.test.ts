import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalIdIn, startTestSystem, type TestSystem, taskIdIn, traceIdIn } from './support/system.ts';

let system: TestSystem;
beforeAll(async () => {
  system = await startTestSystem();
});
afterAll(() => system?.stop());

/** The trace as `switchboard trace` draws it, once every service has flushed its spans. */
async function traceOf(traceId: string) {
  for (let attempt = 0; ; attempt++) {
    const trace = await system.cli('trace', traceId);
    if ((trace.code === 0 && trace.stdout.includes('invoke_agent orders')) || attempt === 20) return trace;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const refundsOf = async (orderId: string) =>
  (await system.store.listRefunds()).filter((refund) => refund.orderId === orderId);

describe('the customer-service system on the offline model, driven through the CLI', () => {
  it('answers a two-step order question: the orders worker runs get_order, then estimate_delivery', async () => {
    const run = await system.cli('ask', 'Where is my order A10086 and when will it arrive?');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('running orders_order_status');
    const getOrder = run.stdout.indexOf('running get_order');
    const estimate = run.stdout.indexOf('running estimate_delivery');
    expect(getOrder).toBeGreaterThan(-1);
    expect(estimate).toBeGreaterThan(getOrder);
    expect(run.stdout).toContain('The orders agent answered');
    expect(run.stdout).toContain('estimated delivery: 2026-12-01');
    expect(run.stdout).toMatch(/Task: [0-9a-f-]{36} \(completed\)/);

    const trace = await traceOf(traceIdIn(run.stdout));
    for (const span of [
      'invoke_agent supervisor',
      'execute_tool orders_order_status',
      'send a2a.orders',
      'process a2a.orders',
      'invoke_agent orders',
      'execute_tool get_order',
      'execute_tool estimate_delivery',
    ]) {
      expect(trace.stdout).toContain(span);
    }
    expect(trace.stdout).toMatch(/across 2 services \((supervisor, orders|orders, supervisor)\)/);
  });

  it('delegates a stock question to the inventory worker', async () => {
    const run = await system.cli('ask', 'Is the blue kettle in stock?');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('running inventory_stock');
    expect(run.stdout).toContain('running check_stock');
    expect(run.stdout).toContain('Blue Enamel Kettle');
    expect(run.stdout).toContain('units in stock: 14');
    expect(run.stdout).not.toContain('running get_order');
  });

  it('answers a malformed order id with the right format, and runs no lookup', async () => {
    const run = await system.cli('ask', 'Where is my order 12345?');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('the letter A followed by 5 digits, e.g. A10086');
    expect(run.stdout).not.toContain('running get_order');
  });

  it('a refund waits for an operator, runs once when approved, and never twice', async () => {
    const asked = await system.cli('ask', 'Please refund order A10086, the kettle arrived broken.');
    expect(asked.code).toBe(3);
    expect(asked.stdout).toContain('Refund order A10086 in full (59.90 EUR) to the original payment method');
    const id = approvalIdIn(asked.stdout);
    expect(await refundsOf('A10086')).toEqual([]);

    const listed = await system.cli('approvals', 'list', '--json');
    const { approvals } = JSON.parse(listed.stdout) as {
      approvals: { id: string; agent: string; taskId: string }[];
    };
    expect(approvals).toEqual([
      expect.objectContaining({ id, agent: 'orders', taskId: taskIdIn(asked.stdout) }),
    ]);

    const approved = await system.cli('approvals', 'approve', id, '--reason', 'photo of the damage received');
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('refunded: yes');
    expect(approved.stdout).toContain('59.90 EUR');
    expect(await refundsOf('A10086')).toHaveLength(1);

    const again = await system.cli('approvals', 'approve', id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Approval ${id} is already approved by operator`);

    const decided = JSON.parse((await system.cli('approvals', 'list', '--decided', '--json')).stdout) as {
      approvals: { id: string; decidedBy: string; decidedAt: string; reason: string }[];
    };
    expect(decided.approvals.find((approval) => approval.id === id)).toMatchObject({
      decidedBy: 'operator',
      reason: 'photo of the damage received',
    });

    const twice = await system.cli('ask', 'Please refund order A10086 again, I did not get it.');
    expect(twice.code).toBe(3);
    const second = approvalIdIn(twice.stdout);
    const secondApproval = await system.cli('approvals', 'approve', second);
    expect(secondApproval.code).toBe(0);
    expect(secondApproval.stdout).toContain('was already refunded on');
    expect(await refundsOf('A10086')).toHaveLength(1);
  });

  it('a denied refund does not run, and the customer is told the operator declined', async () => {
    const asked = await system.cli('ask', 'Please refund order A10090.');
    expect(asked.code).toBe(3);
    const denied = await system.cli(
      'approvals',
      'deny',
      approvalIdIn(asked.stdout),
      '--reason',
      'outside the refund window',
    );
    expect(denied.code).toBe(0);
    expect(denied.stdout).toContain('The operator declined this action');
    expect(denied.stdout).toContain('outside the refund window');
    expect(await refundsOf('A10090')).toEqual([]);
  });

  it('tasks get reads a finished task back', async () => {
    const asked = await system.cli('ask', 'Is the blue kettle in stock?');
    const got = await system.cli('tasks', 'get', taskIdIn(asked.stdout));
    expect(got.code).toBe(0);
    expect(got.stdout).toContain('completed');
    expect(got.stdout).toContain('Blue Enamel Kettle');
  });
});
