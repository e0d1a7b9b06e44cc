import type { Customer, Order } from '../../domain/shop-records.ts';

/** An email ready for the outbox. */
export interface EmailDraft {
  to: string;
  subject: string;
  body: string;
}

/** Writes an apology to a customer about one of their orders; `issue` is what went wrong, if known. */
export function draftApologyEmail({
  customer,
  order,
  issue,
}: {
  customer: Customer;
  order: Order;
  issue?: string | undefined;
}): EmailDraft {
  const items = order.items.map((item) => item.name).join(' and ');
  const what = issue?.trim()
    ? `that ${issue.trim().replace(/[.!]+$/, '')}`
    : 'that your order did not go as it should';
  const firstName = customer.name.split(' ')[0] ?? customer.name;
  return {
    to: customer.email,
    subject: `We are sorry about your order ${order.id}`,
    body: [
      `Dear ${firstName},`,
      '',
      `I am very sorry ${what}. Your order ${order.id} (${items}) should have been a pleasure, and we let you down.`,
      'We are looking into it now and will write to you again as soon as we know more. If you would like a replacement or a refund, just reply to this email.',
      '',
      'With our apologies,',
      'Customer care',
    ].join('\n'),
  };
}
