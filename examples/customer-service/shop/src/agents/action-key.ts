import { principalKey, type ToolContext } from '@switchboard/agent';

/**
 * The idempotency key a tool hands to the store: the runtime's key (the same for the same tool and
 * arguments, so a retried or recovered call repeats it) scoped to whom it acts for and the
 * conversation, and with `perCall`, to the tool call too, for actions a customer may legitimately
 * repeat later with the same arguments (setting an address back to an earlier one). Two customers
 * who use the same conversation id never share a key, so neither is handed the other's action.
 */
export function actionKey(
  context: Pick<ToolContext, 'principal' | 'conversationId' | 'callId' | 'idempotencyKey'>,
  { perCall = false }: { perCall?: boolean } = {},
): string {
  const owner = context.principal ? principalKey(context.principal) : 'nobody';
  const parts = [owner, context.conversationId, ...(perCall ? [context.callId] : []), context.idempotencyKey];
  return parts.join(':');
}

/** `59.9` → `59.90 EUR`. */
export function formatMoney({ amount, currency }: { amount: number; currency: string }): string {
  return `${amount.toFixed(2)} ${currency}`;
}
