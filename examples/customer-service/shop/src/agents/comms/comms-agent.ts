import { type Agent, type ChatModel, defineAgent } from '@switchboard/agent';
import type { ShopStore } from '../../domain/shop-store.ts';
import { CustomerServiceError } from '../../errors.ts';
import { createCommsTools } from './comms-tools.ts';

/** The comms agent's system prompt. */
export const COMMS_INSTRUCTIONS = `You are the customer-care desk of an online kitchenware shop.
Your job: file a support ticket from a customer's message (sentiment, product, urgency, summary), write apology emails about an order, and send emails to customers.
How to work:
- Answer from tool results only, never guess: no facts about orders, products or customers that a tool did not return.
- For a complaint, call extract_ticket with the customer's message word for word.
- To apologise, draft the email with draft_apology_email, then send exactly that email with send_email. Sending needs a human's approval; say that it waits for approval. An email the tool reports as already queued was not sent twice.
- Order ids are the letter A followed by 5 digits, e.g. A10086. If the customer gives an id in another form (such as 12345), call no tool with it: tell them the right form.
Your limits: you cannot refund, change orders or check stock; say that another desk handles those.`;

/** Options of {@link createCommsAgent}. */
export interface CommsAgentOptions {
  store: ShopStore;
  /** The model that extracts tickets as structured output (it may be the agent's own model). */
  model: ChatModel;
}

/**
 * The comms worker: `extract_ticket` (read; structured output from `model`), `draft_apology_email`
 * (read) and `send_email` (dangerous: waits for a human's approval, one email per idempotency key).
 *
 * @example
 * const model = new OfflineModel();
 * const agent = createCommsAgent({ store, model });
 * await runAgent({ agent, model, input: 'My kettle from order A10086 arrived broken!' });
 */
export function createCommsAgent({ store, model }: CommsAgentOptions): Agent {
  const problems = [
    typeof store?.queueEmail === 'function' ? undefined : 'a store (a ShopStore such as MemoryShopStore)',
    typeof model?.generate === 'function' ? undefined : 'a model (a ChatModel such as OfflineModel)',
  ].filter((problem) => problem !== undefined);
  if (problems.length > 0) {
    throw new CustomerServiceError('INVALID_OPTIONS', {
      message: `createCommsAgent needs ${problems.join(' and ')}.`,
    });
  }
  return defineAgent({
    name: 'comms',
    description:
      'Files support tickets from customer messages, writes apology emails and sends emails to customers.',
    instructions: COMMS_INSTRUCTIONS,
    tools: createCommsTools({ store, model }),
    permissions: { tools: ['extract_ticket', 'draft_apology_email', 'send_email'] },
  });
}
