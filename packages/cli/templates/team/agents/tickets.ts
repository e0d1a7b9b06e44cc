// The tickets worker: one read tool and one dangerous, once-only tool. Each user reaches only their
// own tickets: the tools check whom they act for (`principal`), never the prompt.
import { defineAgent, defineTool, type ToolContext } from '@switchboard/agent';
import { defineWorker } from '@switchboard/team';
import { z } from 'zod';

interface Ticket {
  id: string;
  owner: string;
  title: string;
  status: 'open' | 'closed';
}

/** The tickets, in memory: put your own database here (the worker's context has Redis, too). */
const tickets = new Map<string, Ticket>(
  [
    { id: 'T-1001', owner: 'alice', title: 'The printer on floor 2 is jammed', status: 'open' },
    { id: 'T-1002', owner: 'alice', title: 'Please reset my VPN password', status: 'open' },
    { id: 'T-2001', owner: 'bob', title: 'My laptop will not start', status: 'open' },
  ].map((ticket): [string, Ticket] => [ticket.id, { ...ticket, status: 'open' }]),
);

/** The user's own ticket, or nothing: another user's ticket is as good as missing. */
function ownTicket(id: string, { principal }: Pick<ToolContext, 'principal'>): Ticket | undefined {
  const ticket = tickets.get(id);
  return ticket && ticket.owner === principal?.id ? ticket : undefined;
}

const TicketId = z
  .string()
  .trim()
  .regex(/^T-\d{4}$/, 'a ticket id such as T-1001')
  .describe('The ticket id, e.g. T-1001');

const listTickets = defineTool({
  name: 'list_tickets',
  summary: 'List the support tickets of the user, with their status.',
  whenToUse: 'The user asks to see, show or list their tickets.',
  input: z.object({}),
  risk: 'read',
  handler: (_input, context) => ({
    tickets: [...tickets.values()].filter((ticket) => ticket.owner === context.principal?.id),
  }),
});

const closeTicket = defineTool({
  name: 'close_ticket',
  summary: 'Close one of the user’s support tickets. A human approves it first.',
  whenToUse: 'The user asks to close a ticket by its id.',
  input: z.object({ ticketId: TicketId }),
  risk: 'dangerous',
  idempotent: false,
  // What the operator sees before approving: exactly what will happen.
  describeForApproval: ({ ticketId }, context) => ({
    action: ownTicket(ticketId, context)
      ? `Close ticket ${ticketId} ("${ownTicket(ticketId, context)?.title}") for ${context.principal?.id}`
      : `Close ticket ${ticketId}: not a ticket of ${context.principal?.id}, nothing will change`,
    reversible: true,
  }),
  handler: ({ ticketId }, context) => {
    const ticket = ownTicket(ticketId, context);
    if (!ticket) return { closed: false, reason: `There is no ticket ${ticketId} on your account.` };
    if (ticket.status === 'closed')
      return { closed: false, reason: `Ticket ${ticketId} was already closed.` };
    ticket.status = 'closed';
    return { closed: true, ticketId };
  },
});

export const ticketsWorker = defineWorker({
  name: 'tickets',
  agent: defineAgent({
    name: 'tickets',
    description: 'Lists and closes the user’s support tickets.',
    instructions:
      'You handle support tickets. List the user’s tickets when asked; close a ticket only when the user asks to close it by its id.',
    tools: [listTickets, closeTicket],
  }),
});
