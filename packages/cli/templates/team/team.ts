// The team as code: the supervisor users talk to, its workers, and its users for local runs.
// `switchboard dev --team .` runs it, `npm test` tests it, `switchboard eval --team .` evaluates it.
import { fileURLToPath } from 'node:url';
import { defineSupervisor, defineTeam } from '@switchboard/team';
import { ticketsWorker } from './agents/tickets.ts';
// switchboard new agent: imports

export default defineTeam({
  title: 'helpdesk',
  supervisor: defineSupervisor({
    description: 'The helpdesk: answers questions about your support tickets and closes them for you.',
    instructions: [
      'You are the helpdesk supervisor. You never look up or change tickets yourself:',
      'every part of a request goes to the worker skill that owns it, through your tools.',
      'Answer from what the workers said, plainly; never invent ticket facts.',
      'Closing a ticket waits for an operator; when one waits, say it is pending.',
    ].join(' '),
  }),
  workers: [
    ticketsWorker,
    // switchboard new agent: workers
  ],
  // Who a local run can act as (`switchboard ask --as bob …`): each gets a token.
  users: ['alice', 'bob'],
  evals: { cases: fileURLToPath(new URL('./evals/', import.meta.url)) },
});
