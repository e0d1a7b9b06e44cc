import type { Principal } from '@switchboard/agent';

/**
 * Whose shop records a caller reaches — the one rule of object-level access in the shop:
 * - `all`: an operator reaches every customer's orders, customers and emails;
 * - `customer`: a customer (asking directly, or through the supervisor, `via: ['supervisor']`)
 *   reaches only their own;
 * - `none`: a service acting on its own account (no end user behind it), or a request without a
 *   principal, reaches no customer's records at all.
 *
 * Stock levels are public and not covered by it; see {@link mayReserveStock}.
 */
export type ShopAccess = { reach: 'all' } | { reach: 'customer'; customerId: string } | { reach: 'none' };

/** The {@link ShopAccess} of a principal, from its kind (how it authenticated), never from a prompt. */
export function shopAccess(principal: Principal | undefined): ShopAccess {
  switch (principal?.kind) {
    case 'operator':
      return { reach: 'all' };
    // The platform's end users are the shop's customers.
    case 'user':
      return { reach: 'customer', customerId: principal.id };
    default:
      return { reach: 'none' };
  }
}

/** True when `access` reaches the records of customer `customerId`. */
export function reachesCustomer(access: ShopAccess, customerId: string): boolean {
  if (access.reach === 'all') return true;
  return access.reach === 'customer' && access.customerId === customerId;
}

/**
 * Whether `access` may set stock aside. A reservation takes units away from every other customer,
 * so an anonymous caller or a service on its own account (no customer it could be for) must not
 * drain the stock; a signed-in customer or an operator may.
 */
export function mayReserveStock(access: ShopAccess): boolean {
  return access.reach !== 'none';
}

const NOBODY = 'no customer is signed in to this conversation. Ask the customer to sign in and try again.';

/**
 * What a caller is told about an order it cannot see. A customer reads the same words for an order
 * that does not exist and for another customer's order, so the answer never tells whether an order
 * id is taken.
 */
export function orderNotFoundMessage(access: ShopAccess, orderId: string): string {
  switch (access.reach) {
    case 'customer':
      return `There is no order ${orderId} on your account. Ask the customer to check the order id in their confirmation email.`;
    case 'all':
      return `There is no order ${orderId}. Ask the customer to check the order id in their confirmation email.`;
    case 'none':
      return `Order ${orderId} cannot be looked up: ${NOBODY}`;
  }
}

/**
 * What a caller is told about an email address it may not write to: a customer only reaches the
 * address on their own account (the same words for a stranger's and another customer's address),
 * an operator any customer's.
 */
export function recipientRefusedMessage(access: ShopAccess, to: string): string {
  switch (access.reach) {
    case 'customer':
      return `${to} is not the email address on your account; emails go only to the customer's own address.`;
    case 'all':
      return `${to} is not the email of a customer; emails go to customers only.`;
    case 'none':
      return `No email can be sent to ${to}: ${NOBODY}`;
  }
}

/** What a caller without a signed-in customer is told when it asks to reserve stock. */
export function reserveRefusedMessage(sku: string): string {
  return `Nothing of ${sku} was reserved: reserving stock is for a signed-in customer, and ${NOBODY}`;
}
