import type { AnyTool, Principal, ToolContext } from '@switchboard/agent';
import { silentLogger } from '@switchboard/agent';
import { bundledShopFixture, ShopFixture, type ShopStore } from '../../src/index.ts';

const fixture = ShopFixture.parse(bundledShopFixture());

/** Everything a shop holds that a tool could change, read straight from the store. */
export async function shopSnapshot(store: ShopStore) {
  return {
    orders: await Promise.all(fixture.orders.map((order) => store.getOrder(order.id))),
    customers: await Promise.all(fixture.customers.map((customer) => store.getCustomer(customer.id))),
    stock: await Promise.all(fixture.products.map((product) => store.checkStock({ sku: product.sku }))),
    refunds: await store.listRefunds(),
    outbox: await store.listOutbox(),
    reservations: await store.listReservations(),
  };
}

/** A value as JSON with `id` written as `<id>`: two answers that differ only in the id read the same. */
export function withoutId(value: unknown, id: string): string {
  return JSON.stringify(value).replaceAll(id, '<id>');
}

/** The context a tool handler receives, as `principal` in one conversation; one key per call id. */
export function toolContext(principal: Principal | undefined, callId = 'call-1'): ToolContext {
  return {
    signal: new AbortController().signal,
    conversationId: 'conv-access',
    callId,
    attempt: 1,
    idempotencyKey: `key-${callId}`,
    credentials: {
      get: (name) => {
        throw new Error(`no credential ${name} in this test`);
      },
    },
    principal,
    logger: silentLogger(),
    waitForApproval: () => {
      throw new Error('no approval is waited for in this test');
    },
    report: () => {},
  };
}

/**
 * Runs one tool's handler as `principal`, with its arguments validated as the runtime would; past
 * any approval (what a handler does once a human approved is what is tested).
 */
export async function callTool(
  tools: readonly AnyTool[],
  name: string,
  args: Record<string, unknown>,
  principal: Principal | undefined,
  callId = `${name}-${JSON.stringify(args)}`,
): Promise<unknown> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.handler(tool.input.parse(args), toolContext(principal, callId));
}
