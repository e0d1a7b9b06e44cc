import type { SkillSpec } from '@switchboard/protocol';

/** The comms agent's capabilities, for its card and a supervisor's delegation tools. */
export const COMMS_SKILLS: readonly SkillSpec[] = [
  {
    id: 'tickets',
    name: 'Support tickets',
    description:
      'Files a support ticket for a complaint from an upset, angry or furious customer who needs a problem fixed urgently: sentiment, product, urgency and a summary.',
    tags: ['support', 'ticket', 'complaint', 'urgency'],
    examples: [
      "I'm so angry, my toaster is faulty and I need it fixed today!",
      'This is unacceptable, my blender stopped working and I am furious.',
    ],
    tools: ['extract_ticket'],
  },
  {
    id: 'customer-email',
    name: 'Customer emails',
    description:
      'Writes an apology email to the customer of an order and sends it, after a human approves it.',
    tags: ['email', 'apology', 'customer care'],
    examples: [
      'Send the customer of order A10088 an apology email.',
      'Write an apology email about order A10090 and send it.',
    ],
    tools: ['draft_apology_email', 'send_email'],
  },
];
