import { expect, inject, it } from 'vitest';
import { type Operation, peerClient } from './clients.ts';

declare module 'vitest' {
  interface TaskMeta {
    /** The interop table's cell this test fills. */
    interop?: { client: string; operation: Operation; peerFault?: string };
  }
}

/**
 * A test of one cell of the interop table: `client` doing `operation` against the supervisor. The
 * table reporter reads the cell from the test's meta and its result. `peerFault` marks a test that
 * pins a fault of the peer's own (it passes while the fault is there, and its cell says so).
 */
export function peerTest(
  client: string,
  operation: Operation,
  name: string,
  body: () => Promise<void>,
  { peerFault }: { peerFault?: string } = {},
): void {
  const row = peerClient(client);
  if (row.notOffered[operation])
    throw new Error(`${client} does not offer ${operation} (PEER_CLIENTS); remove the test or the note`);
  it(`${operation}: ${name}`, async ({ task }) => {
    task.meta.interop = { client, operation, ...(peerFault ? { peerFault } : {}) };
    await body();
  });
}

/** The bundled team's supervisor and a user's token for it (started once by the global setup). */
export function supervisor(): { url: string; cardUrl: string; token: string } {
  const url = inject('supervisorUrl');
  return { url, cardUrl: `${url}/.well-known/agent-card.json`, token: inject('token') };
}

/** The platform's own `fetch`, kept before any test puts its own in the global's place. */
const platformFetch = globalThis.fetch;

/**
 * `fetch` that sends `token` as a bearer token, as each client's users wire credentials in (an
 * option where the client has one, else in the global's place).
 */
export function fetchWithToken(token: string): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('Authorization', `Bearer ${token}`);
    return platformFetch(input, { ...init, headers });
  };
}

/** What the bundled team answers deterministically on the offline model. */
export const ASK = {
  /** One delegation to the inventory worker; its answer names the kettle and its stock. */
  stock: 'Is the blue kettle in stock?',
  /** A follow-up in the same conversation: the orders worker. */
  order: 'Where is my order A10086?',
  /** Waits for an operator's approval (input-required) until canceled: what cancel is tried on. */
  refund: 'Please refund order A10090.',
} as const;

/** The start of the supervisor's answer to `ASK.stock` and `ASK.order`. */
export const ANSWER_START = { stock: 'The inventory agent answered:', order: 'The orders agent answered:' };

/** What the supervisor says while it works: never part of an answer. */
const PROGRESS = /Working on it|Step \d+:/;

/**
 * What a client's user reads as the answer is the answer, once: it starts as the supervisor's does,
 * holds none of its progress lines, and does not repeat itself.
 */
export function expectAnswerOnce(shown: string, start: string): void {
  expect(shown.trim().startsWith(start), `the answer as shown:\n${shown}`).toBe(true);
  expect(shown.split(start), `the answer appears more than once:\n${shown}`).toHaveLength(2);
  expect(shown, 'progress glued into the answer').not.toMatch(PROGRESS);
}

/** The refusal every client's user should see without a token: the server's own words. */
export const REFUSAL = /401|requires a bearer token/;

/** What `@a2a-js/sdk/client` exports to build a client, alike in 0.3 and 1.x. */
interface SdkClientModule<C, T, R> {
  ClientFactory: new (options: {
    transports: T[];
    cardResolver: R;
  }) => { createFromUrl(url: string): Promise<C> };
  JsonRpcTransportFactory: new (options: { fetchImpl: typeof fetch }) => T;
  DefaultAgentCardResolver: new (options: { fetchImpl: typeof fetch }) => R;
}

/** The SDK's JSON-RPC client for the supervisor, as its users build it, sending what `fetchImpl` sends. */
export function sdkClientOf<C, T, R>(
  sdk: SdkClientModule<C, T, R>,
  url: string,
  fetchImpl: typeof fetch,
): Promise<C> {
  return new sdk.ClientFactory({
    transports: [new sdk.JsonRpcTransportFactory({ fetchImpl })],
    cardResolver: new sdk.DefaultAgentCardResolver({ fetchImpl }),
  }).createFromUrl(url);
}
