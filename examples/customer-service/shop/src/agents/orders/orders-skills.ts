import type { SkillSpec } from '@switchboard/protocol';

/** The orders agent's capabilities, for its card and a supervisor's delegation tools. */
export const ORDERS_SKILLS: readonly SkillSpec[] = [
  {
    id: 'order-status',
    name: 'Order status and delivery date',
    description:
      'Tells where an order is: the order status, what the order holds, its carrier and tracking number, and the expected delivery date of the order.',
    tags: ['orders', 'status', 'tracking', 'delivery'],
    examples: [
      'Where is my order A10086?',
      'What is the status of order A10090?',
      'What is in my order A10087?',
    ],
    tools: ['get_order', 'estimate_delivery'],
  },
  {
    id: 'shipping-address',
    name: 'Change the shipping address',
    description:
      'Changes the shipping address of an order that has not shipped yet, to deliver it somewhere else.',
    tags: ['orders', 'address', 'shipping'],
    examples: [
      'Please change the shipping address of order A10087 to Hauptstraße 5, 10115 Berlin.',
      'I moved, can you send order A10095 to my new address?',
    ],
    tools: ['update_shipping_address'],
  },
  {
    id: 'refunds',
    name: 'Refunds',
    description:
      'Refunds an order in full to the original payment method, money back to the customer, after a human approves the refund.',
    tags: ['orders', 'refund', 'money back'],
    examples: [
      'I want a refund for order A10090.',
      'Can I get my money back for order A10088? Please refund it.',
    ],
    tools: ['refund_order'],
  },
];
