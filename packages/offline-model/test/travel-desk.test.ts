import { type AnyTool, defineAgent, defineTool, runAgent, silentLogger } from '@switchboard/agent';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OfflineModel } from '../src/index.ts';

/*
 * A team nobody tuned the planner for: a travel desk. The flights worker can search flights and list
 * bookings (read), and book a flight (dangerous: once only, after a human approves); the weather
 * worker reads the weather of a city. The search and the bookings answer with a `flight_id`, the very
 * argument `book_flight` takes.
 */
const FlightId = z.string().regex(/^FL\d{3,4}$/, 'must be FL and 3 or 4 digits, e.g. FL123');

const searchFlights = defineTool({
  name: 'search_flights',
  summary: 'Search the flights from one city to another, with their flight ids, times and prices.',
  whenToUse: 'The traveller wants to find or compare flights between two cities.',
  input: z.object({
    from: z.string().min(2).describe('The city the flight leaves from'),
    to: z.string().min(2).describe('The city the flight goes to'),
  }),
  risk: 'read',
  handler: ({ from, to }) => ({
    flights: [
      { flight_id: 'FL123', from, to, departs: '2026-12-05T08:10:00Z', price: '129 EUR' },
      { flight_id: 'FL456', from, to, departs: '2026-12-05T17:45:00Z', price: '99 EUR' },
    ],
  }),
});

const listBookings = defineTool({
  name: 'list_bookings',
  summary: 'List the flights the traveller has booked, with their flight ids and status.',
  whenToUse: 'The traveller wants to see their bookings or trips.',
  input: z.object({}),
  risk: 'read',
  handler: () => ({ bookings: [{ booking: 'BK-1', flight_id: 'FL777', status: 'confirmed' }] }),
});

const booked: string[] = [];
const bookFlight = defineTool({
  name: 'book_flight',
  summary: 'Book a seat on a flight by its flight id and pay for it. A human approves it first.',
  whenToUse: 'The traveller asks to book a flight whose flight id they name.',
  input: z.object({ flight_id: FlightId }),
  risk: 'dangerous',
  describeForApproval: ({ flight_id }) => ({
    action: `Book and pay a seat on flight ${flight_id}`,
    reversible: false,
  }),
  handler: ({ flight_id }) => {
    booked.push(flight_id);
    return { booked: true, flight_id };
  },
});

const getWeather = defineTool({
  name: 'get_weather',
  summary: 'Tell the weather forecast of a city: temperature and sky.',
  whenToUse: 'The traveller asks about the weather or the temperature somewhere.',
  input: z.object({ city: z.string().min(2).describe('The city, e.g. Lisbon') }),
  risk: 'read',
  handler: ({ city }) => ({ city, temperature: '17 °C', sky: 'sunny' }),
});

const model = new OfflineModel();
const flights = defineAgent({
  name: 'flights',
  instructions: 'You help travellers find and book flights.',
  tools: [searchFlights, listBookings, bookFlight],
});
const weather = defineAgent({
  name: 'weather',
  instructions: 'You tell travellers the weather.',
  tools: [getWeather],
});

async function ask(input: string, agent = flights) {
  const result = await runAgent({ agent, model, input, logger: silentLogger() });
  return { ...result, made: result.toolCalls.map((call) => [call.tool, call.arguments]) };
}

describe('the offline planner on a travel desk', () => {
  it('searches flights between two cities named without quotes, and books nothing', async () => {
    const result = await ask('find flights from Paris to Rome');
    expect(result.made).toEqual([['search_flights', { from: 'Paris', to: 'Rome' }]]);
    expect(result.stopReason).toBe('model');
    expect(result.pendingApprovals).toEqual([]);
    expect(result.output).toContain('FL123');
  });

  it('shows the bookings and does not book the flight id they list', async () => {
    const result = await ask('show my bookings');
    expect(result.made).toEqual([['list_bookings', {}]]);
    expect(result.stopReason).toBe('model');
    expect(result.pendingApprovals).toEqual([]);
    expect(result.output).toContain('FL777');
  });

  it('asks for the booking when the traveller says "book", and the approval gate holds it', async () => {
    const result = await ask('book flight FL123');
    expect(result.made).toEqual([['book_flight', { flight_id: 'FL123' }]]);
    expect(result.stopReason).toBe('approval');
    expect(result.pendingApprovals.map((request) => request.action)).toEqual([
      'Book and pay a seat on flight FL123',
    ]);
    expect(booked).toEqual([]);
  });

  it('never books from a search result, even with every tool in one set', async () => {
    const desk = defineAgent({
      name: 'desk',
      instructions: 'You help travellers.',
      tools: [searchFlights, listBookings, bookFlight, getWeather] satisfies AnyTool[],
    });
    for (const request of ['find flights from Paris to Rome', 'show my bookings', 'my bookings please']) {
      const result = await ask(request, desk);
      expect(result.made.map(([tool]) => tool)).not.toContain('book_flight');
    }
    const asked = await ask('please book flight FL456 for me', desk);
    expect(asked.made).toEqual([['book_flight', { flight_id: 'FL456' }]]);
  });

  it('reads the city of a weather question from the words, capitalised or not', async () => {
    const lisbon = await ask("what's the weather in Lisbon", weather);
    expect(lisbon.made).toEqual([['get_weather', { city: 'Lisbon' }]]);
    expect(lisbon.output).toContain('sunny');
    const lower = await ask('weather in lisbon?', weather);
    expect(lower.made).toEqual([['get_weather', { city: 'lisbon' }]]);
    const rio = await ask('How is the weather in Rio de Janeiro today?', weather);
    expect(rio.made).toEqual([['get_weather', { city: 'Rio de Janeiro' }]]);
  });
});
