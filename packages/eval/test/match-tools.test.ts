import { describe, expect, it } from 'vitest';
import { matchTools } from '../src/index.ts';
import { call } from './support.ts';

const trajectory = [
  call('supervisor', 'orders_order_status', { request: 'Where is A10086?' }),
  call('orders', 'get_order', { orderId: 'A10086' }),
  call('orders', 'estimate_delivery', { orderId: 'A10086', carrier: 'DHL', trackingNumber: 'JJD1' }),
  call(
    'orders',
    'get_order',
    { orderId: '12345' },
    { accepted: false, status: 'refused', errorCode: 'INVALID_ARGUMENTS' },
  ),
];

describe('matchTools', () => {
  it('subset: the expected calls happen, others are allowed; arguments are a subset', () => {
    const match = matchTools({
      mode: 'subset',
      expected: [
        { tool: 'estimate_delivery', arguments: { carrier: 'DHL' } },
        { tool: 'get_order', agent: 'orders' },
      ],
      calls: trajectory,
    });
    expect(match).toEqual({ ok: true, matched: 2, problems: [] });
  });

  it('subset: a refused call does not count as made, and arguments must be equal', () => {
    const match = matchTools({
      mode: 'subset',
      expected: [
        { tool: 'get_order', arguments: { orderId: '12345' } },
        { tool: 'get_order', agent: 'inventory' },
      ],
      calls: trajectory,
    });
    expect(match.ok).toBe(false);
    expect(match.matched).toBe(0);
    expect(match.problems).toEqual(['not called: get_order {"orderId":"12345"}; inventory/get_order']);
  });

  it('subset: each made call matches one expected call only', () => {
    const match = matchTools({
      mode: 'subset',
      expected: [{ tool: 'get_order' }, { tool: 'get_order' }],
      calls: trajectory,
    });
    expect(match).toMatchObject({ ok: false, matched: 1 });
  });

  it('exact: exactly these calls at the workers’ level, in any order', () => {
    const ok = matchTools({
      mode: 'exact',
      expected: [{ tool: 'estimate_delivery' }, { tool: 'get_order' }],
      calls: trajectory,
    });
    expect(ok).toEqual({ ok: true, matched: 2, problems: [] });
    const extra = matchTools({ mode: 'exact', expected: [{ tool: 'get_order' }], calls: trajectory });
    expect(extra.ok).toBe(false);
    expect(extra.problems).toEqual([
      'also called: orders/estimate_delivery {"orderId":"A10086","carrier":"DHL","trackingNumber":"JJD1"}',
    ]);
  });

  it('exact: a delegation list is compared with the supervisor’s calls only', () => {
    const match = matchTools({
      mode: 'exact',
      expected: [{ tool: 'orders_order_status' }],
      calls: trajectory,
    });
    expect(match).toEqual({ ok: true, matched: 1, problems: [] });
    const more = matchTools({
      mode: 'exact',
      expected: [{ tool: 'orders_order_status' }],
      calls: [...trajectory, call('supervisor', 'inventory_stock', { request: 'kettle?' })],
    });
    expect(more.problems).toEqual(['also called: supervisor/inventory_stock {"request":"kettle?"}']);
  });

  it('in-order: these calls in this order, others may come in between', () => {
    const ok = matchTools({
      mode: 'in-order',
      expected: [{ tool: 'orders_order_status' }, { tool: 'estimate_delivery' }],
      calls: trajectory,
    });
    expect(ok).toEqual({ ok: true, matched: 2, problems: [] });
    const reversed = matchTools({
      mode: 'in-order',
      expected: [{ tool: 'estimate_delivery' }, { tool: 'get_order' }],
      calls: trajectory,
    });
    expect(reversed).toEqual({
      ok: false,
      matched: 2,
      problems: ['out of order: get_order was not called after estimate_delivery'],
    });
  });
});
