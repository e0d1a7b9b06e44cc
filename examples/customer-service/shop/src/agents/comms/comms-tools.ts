import { type AnyTool, type ChatModel, defineTool, generateObject } from '@switchboard/agent';
import { controlCharacterIn } from '@switchboard/protocol';
import { z } from 'zod';
import { OrderId } from '../../domain/order-id.ts';
import { orderNotFoundMessage } from '../../domain/shop-access.ts';
import type { ShopStore } from '../../domain/shop-store.ts';
import { shopFor } from '../../domain/shop-view.ts';
import { actionKey } from '../action-key.ts';
import { draftApologyEmail } from './apology-email.ts';
import { emailPreview } from './email-preview.ts';
import { TICKET_INSTRUCTIONS, Ticket, ticketCues, ticketPrompt } from './ticket.ts';

function extractTicketTool(store: ShopStore, model: ChatModel) {
  return defineTool({
    name: 'extract_ticket',
    summary:
      "File a support ticket from a customer's message: their sentiment, the product, the urgency and a summary.",
    whenToUse:
      'A customer complains, is upset or furious, reports a broken or faulty product, or needs something fixed urgently.',
    input: z.object({
      request: z.string().trim().min(1).describe("The customer's message, word for word"),
    }),
    risk: 'read',
    timeoutMs: 30_000,
    fallbackMessage: 'The ticket could not be filed right now. Tell the customer their message was received.',
    handler: async ({ request }, context) => {
      // The cues look orders up as the caller: another customer's order named in the message is
      // read like a missing one, so the ticket tells nothing of it.
      const cues = await ticketCues({ store: shopFor(store, context.principal), message: request });
      const result = await generateObject({
        model,
        schema: Ticket,
        name: 'ticket',
        description: 'A support ticket of the shop',
        system: TICKET_INSTRUCTIONS,
        prompt: ticketPrompt({ message: request, cues }),
        signal: context.signal,
        logger: context.logger,
        conversationId: context.conversationId,
      });
      if (!result.ok) throw result.error;
      return { ...(cues.orderId ? { orderId: cues.orderId } : {}), ...result.object };
    },
  });
}

function draftApologyEmailTool(store: ShopStore) {
  return defineTool({
    name: 'draft_apology_email',
    summary: 'Write an apology email to the customer of an order; it is not sent.',
    whenToUse:
      'The customer should get an apology email about their order, to be sent afterwards with send_email.',
    input: z.object({
      orderId: OrderId,
      issue: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .optional()
        .describe('What went wrong, in a few words, e.g. "the kettle arrived broken"'),
    }),
    risk: 'read',
    fallbackMessage: 'The email could not be drafted right now.',
    handler: async ({ orderId, issue }, context) => {
      const shop = shopFor(store, context.principal);
      const order = await shop.getOrder(orderId);
      const customer = order && (await shop.getCustomer(order.customerId));
      if (!order || !customer) {
        return { orderId, drafted: false, message: orderNotFoundMessage(shop.access, orderId) };
      }
      return { orderId, ...draftApologyEmail({ customer, order, issue }) };
    },
  });
}

/**
 * A header of an email (its subject, its recipient) is one line of plain text: a CR or LF would
 * start a header of its own (`Bcc: …`), an escape sequence or a bidi override would hide what the
 * approver reads. Refused with what was found, for the model to write it again.
 */
const oneLine = <T extends z.ZodType<string>>(schema: T) =>
  schema.superRefine((text, ctx) => {
    const found = controlCharacterIn(text);
    if (found)
      ctx.addIssue({
        code: 'custom',
        message: `must be one line of plain text, without line breaks or control characters (found ${found})`,
      });
  });

/** A body may have lines and tabs, but no escape sequence or other control character. */
const plainBody = z
  .string()
  .trim()
  .min(1)
  .max(5000)
  .superRefine((text, ctx) => {
    const found = controlCharacterIn(text.replaceAll('\r\n', '\n'), { lines: true });
    if (found)
      ctx.addIssue({
        code: 'custom',
        message: `must be plain text: lines and tabs, but no escape sequences or other control characters (found ${found})`,
      });
  });

function sendEmailTool(store: ShopStore) {
  return defineTool({
    name: 'send_email',
    summary: "Send an email to a customer of the shop, through the shop's outbox. A human approves it first.",
    whenToUse: 'An email for a customer was written (e.g. by draft_apology_email) and should now be sent.',
    input: z.object({
      to: oneLine(z.email()).describe("The customer's email address"),
      subject: oneLine(z.string().trim().min(1).max(200)),
      body: plainBody,
    }),
    risk: 'dangerous',
    idempotent: false,
    // The approver reads what will be sent, the body too: a harmless subject may carry any body.
    describeForApproval: ({ to, subject, body }) => ({
      action: `Send the email "${subject}" to ${to}`,
      reversible: false,
      details: emailPreview(body),
    }),
    fallbackMessage: 'The email could not be sent right now. Do not try again; an operator will check it.',
    handler: async ({ to, subject, body }, context) => {
      const result = await shopFor(store, context.principal).queueEmail({
        to,
        subject,
        body,
        idempotencyKey: actionKey(context),
      });
      if (result.outcome === 'recipient_refused') return { to, queued: false, message: result.message };
      return {
        to: result.email.to,
        queued: true,
        emailId: result.email.emailId,
        ...(result.replayed ? { note: 'This email had already been queued; it was not sent twice.' } : {}),
      };
    },
  });
}

/** The comms agent's tools, on a store, with the model that extracts tickets. */
export function createCommsTools({ store, model }: { store: ShopStore; model: ChatModel }): AnyTool[] {
  return [extractTicketTool(store, model), draftApologyEmailTool(store), sendEmailTool(store)];
}
