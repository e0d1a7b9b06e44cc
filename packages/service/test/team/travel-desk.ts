// A team that is not the shop, defined as a user would: the travel desk of docs/your-own-team.md.
import { defineAgent, defineTool } from '@switchboard/agent';
import { defineSupervisor, defineTeam, defineWorker } from '@switchboard/team';
import { z } from 'zod';

/** Bookings by user: what `book_flight` wrote, for a test to see. */
export const bookings = new Map<string, string[]>();

const FlightId = z
  .string()
  .trim()
  .regex(/^[A-Z]{2}\d{2,4}$/, 'a flight number such as "TP123"')
  .describe('The flight number, e.g. TP123');

const listBookings = defineTool({
  name: 'list_bookings',
  summary: 'List the flights booked by the user.',
  whenToUse: 'The user asks to see, show or list their bookings.',
  input: z.object({}),
  risk: 'read',
  handler: (_input, { principal }) => ({ bookings: bookings.get(principal?.id ?? '') ?? [] }),
});

const bookFlight = defineTool({
  name: 'book_flight',
  summary: 'Book a seat on a flight for the user. A human approves it first.',
  whenToUse: 'The user asks to book a flight by its flight number.',
  input: z.object({ flightId: FlightId }),
  risk: 'dangerous',
  idempotent: false,
  describeForApproval: ({ flightId }, { principal }) => ({
    action: `Book a seat on flight ${flightId} for ${principal?.id ?? 'nobody'}`,
    reversible: false,
  }),
  handler: ({ flightId }, { principal }) => {
    const id = principal?.id ?? '';
    bookings.set(id, [...(bookings.get(id) ?? []), flightId]);
    return { booked: flightId };
  },
});

const forecast = defineTool({
  name: 'forecast',
  summary: 'The weather forecast for a city.',
  whenToUse: 'The user asks about the weather or the forecast.',
  input: z.object({ city: z.string().trim().min(1).describe('The city, e.g. "Lisbon"') }),
  risk: 'read',
  handler: ({ city }) => ({ city, forecast: 'sunny, 24 °C' }),
});

export default defineTeam({
  title: 'travel desk',
  supervisor: defineSupervisor({
    description: 'The travel desk: flights and the weather where you fly.',
    instructions: 'Send flight questions and bookings to the flights skills, weather questions to weather.',
  }),
  workers: [
    defineWorker({
      name: 'flights',
      agent: defineAgent({
        name: 'flights',
        instructions: 'Show the user their bookings and book flights for them.',
        tools: [listBookings, bookFlight],
      }),
    }),
    defineWorker({
      name: 'weather',
      agent: defineAgent({ name: 'weather', instructions: 'Say the forecast.', tools: [forecast] }),
    }),
  ],
  users: ['traveller-1', 'traveller-2'],
});
