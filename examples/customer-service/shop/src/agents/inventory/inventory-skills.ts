import type { SkillSpec } from '@switchboard/protocol';

/** The inventory agent's capabilities, for its card and a supervisor's delegation tools. */
export const INVENTORY_SKILLS: readonly SkillSpec[] = [
  {
    id: 'stock',
    name: 'Stock and reservations',
    description:
      'Tells whether a product is in stock or available and how many units are left, by SKU or by kind and colour; reserves units of a product.',
    tags: ['inventory', 'stock', 'availability', 'reservation'],
    examples: [
      'Is the red kettle available?',
      'How many SKU-2001 toasters do you have left?',
      'Please reserve 2 units of SKU-3002 for me.',
    ],
    tools: ['check_stock', 'reserve_stock'],
  },
];
