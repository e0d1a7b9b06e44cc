import { z } from 'zod';
import type { Order } from '../../domain/shop-records.ts';
import type { ShopStore } from '../../domain/shop-store.ts';

/** A support ticket as extracted from a customer's message. */
export const Ticket = z.object({
  sentiment: z.enum(['positive', 'neutral', 'negative']).describe("The customer's mood"),
  product: z.string().min(1).describe('The product the message is about, as the shop names it'),
  urgency: z
    .number()
    .int()
    .min(1)
    .max(5)
    .describe('How soon the shop must act: from 1, can wait, to 5, today'),
  summary: z.string().min(1).describe('One sentence: what happened and what the customer wants'),
});
export type Ticket = z.infer<typeof Ticket>;

const NEGATIVE =
  /\b(furious|angry|upset|annoyed|disappointed|unacceptable|terrible|awful|horrible|worst|broken|damaged|cracked|leaking|faulty|defective|late|missing|wrong|never|complain\w*|ridiculous|useless|scam)\b/gi;
const POSITIVE =
  /\b(thanks?|thank you|great|love|lovely|happy|perfect|excellent|wonderful|brilliant|pleased|amazing)\b/gi;
const URGENT = /\b(today|now|immediately|asap|urgent(?:ly)?|right away|at once|tonight)\b/i;
const PROBLEMS: readonly [RegExp, string][] = [
  [/\b(broken|cracked|smashed)\b/i, 'broken'],
  [/\b(damaged|dented)\b/i, 'damaged'],
  [/\b(leak\w*|faulty|defective|stopped working|does not work|doesn't work)\b/i, 'faulty'],
  [/\b(late|delayed|still not (?:arrived|here)|never arrived|missing)\b/i, 'late or missing'],
  [/\bwrong\b/i, 'wrong'],
];
/** Longest cue summary: longer labelled values are not read back by the offline planner. */
const MAX_SUMMARY = 80;
const ORDER_ID = /(?<![A-Za-z0-9])[Aa]\d{5}(?![A-Za-z0-9])/;

/** Keyword cues of a ticket, grounded in the store, that the model checks against the message. */
export interface TicketCues {
  orderId: string | undefined;
  ticket: Ticket;
}

/** Cuts a text at a word boundary to at most {@link MAX_SUMMARY} characters. */
function clip(text: string): string {
  if (text.length <= MAX_SUMMARY) return text;
  return `${text.slice(0, MAX_SUMMARY - 1).replace(/\s+\S*$/, '')}…`;
}

function productOf(order: Order | undefined, named: readonly { name: string; category: string }[]): string {
  if (order) return order.items.map((item) => item.name).join(' and ');
  const [first] = named;
  if (!first) return 'unknown';
  if (named.length === 1) return first.name;
  return named.every((item) => item.category === first.category) ? first.category : 'unknown';
}

/**
 * Reads cues from a customer's message: sentiment from keywords, urgency from mood and words like
 * "today", and the product from the order the message names (else from the catalogue). They let
 * small or offline models file a correct ticket; a large model corrects them where the message
 * says otherwise.
 */
export async function ticketCues({
  store,
  message,
}: {
  /** The shop as the caller sees it (`shopFor`), so the cues name none of another's orders. */
  store: Pick<ShopStore, 'getOrder' | 'checkStock'>;
  message: string;
}): Promise<TicketCues> {
  const negative = message.match(NEGATIVE)?.length ?? 0;
  const positive = message.match(POSITIVE)?.length ?? 0;
  const sentiment = negative > positive ? 'negative' : positive > negative ? 'positive' : 'neutral';
  const urgent = URGENT.test(message);
  const base = { negative: 4, neutral: 3, positive: 2 }[sentiment];
  const urgency = Math.min(5, base + (urgent ? 1 : 0));
  const orderId = ORDER_ID.exec(message)?.[0]?.toUpperCase();
  const order = orderId ? await store.getOrder(orderId) : undefined;
  const named = order ? [] : await store.checkStock({ product: message });
  const product = productOf(order, named);
  const problem = PROBLEMS.find(([pattern]) => pattern.test(message))?.[1];
  const subject = product === 'unknown' ? 'an order' : product;
  const summary = [
    problem ? `${problem[0]?.toUpperCase()}${problem.slice(1)} ${subject}` : `Message about ${subject}`,
    order ? ` from order ${order.id}` : '',
    urgent ? ' - needs help today' : '',
  ].join('');
  return { orderId: order?.id ?? orderId, ticket: { sentiment, product, urgency, summary: clip(summary) } };
}

/** The prompt of the extraction: the cues first, one per line, then the customer's message. */
export function ticketPrompt({ message, cues }: { message: string; cues: TicketCues }): string {
  const { sentiment, urgency, product, summary } = cues.ticket;
  return [
    "Cues from the shop's records and keyword rules (check each against the message and correct it where the message says otherwise):",
    `- sentiment: ${sentiment}`,
    `- urgency: ${urgency}`,
    `- product: ${product}`,
    `- summary: ${summary.replace(/[,;!?]/g, ' ')}`,
    '',
    'Customer message:',
    message,
  ].join('\n');
}

/** The system prompt of the extraction. */
export const TICKET_INSTRUCTIONS = `You file support tickets for an online kitchenware shop.
Read the customer's message and answer with the ticket only:
- sentiment: the customer's mood (positive, neutral or negative).
- product: the product the message is about, as the shop names it (use the cue when it fits).
- urgency: a whole number from 1 (can wait) to 5 (must be handled today).
- summary: one sentence with what happened and what the customer wants.
Use only what the message and the cues say; never invent facts.`;
