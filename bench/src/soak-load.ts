/**
 * The soak's load: blocking SendMessage calls from the official SDK client to the supervisor, a fixed
 * number in flight, each a new conversation with its own contextId (so its tasks can be found in Redis
 * afterwards), alternating between the prompts of `SOAK_PROMPTS`. Every call ends in one outcome.
 */
import { randomUUID } from 'node:crypto';
import { type SendMessageRequest, type Task, TaskState } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { sendMessageRequest, userMessage } from '@switchboard/protocol';

/** A request of the soak and what its answer must contain to count as answered. */
export interface SoakPrompt {
  /** The worker agent the supervisor should delegate it to. */
  agent: string;
  text: string;
  expect: string;
}

/** Two requests that each need one delegation: orders (get_order + estimate_delivery), inventory. */
export const SOAK_PROMPTS: readonly SoakPrompt[] = [
  {
    agent: 'orders',
    text: 'Where is my order A10086 and when will it arrive?',
    expect: 'estimated delivery',
  },
  { agent: 'inventory', text: 'Is the blue kettle in stock?', expect: 'Blue Enamel Kettle' },
];

/** How one request ended: `ok`, or the kind of failure (grouped in the report) with an example. */
export interface Outcome {
  contextId: string;
  prompt: SoakPrompt;
  ok: boolean;
  kind: string;
  detail?: string;
  latencyMs: number;
  /** When the call ended, ms after the load started. */
  endedAtMs: number;
}

/** An SDK client for the supervisor, presenting the customer's bearer token. */
export function customerClient(supervisorUrl: string, token: string): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('Authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  return new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  }).createFromUrl(supervisorUrl);
}

const request = (text: string, contextId: string): SendMessageRequest =>
  sendMessageRequest({ message: userMessage({ text, contextId }) });

const textOf = (parts: Task['artifacts'][number]['parts'] | undefined) =>
  (parts ?? []).flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : [])).join('\n');

const short = (text: string) => text.replace(/\s+/g, ' ').slice(0, 160);

/** The outcome of a reply: ok only for a completed task whose answer has what the prompt expects. */
function judge(result: unknown, prompt: SoakPrompt): { ok: boolean; kind: string; detail?: string } {
  if (!result || typeof result !== 'object' || !('status' in result)) {
    return { ok: false, kind: 'reply is a message, not a task' };
  }
  const task = result as Task;
  const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
  if (state !== TaskState.TASK_STATE_COMPLETED) {
    return {
      ok: false,
      kind: `task ${TaskState[state] ?? state}`,
      detail: short(textOf(task.status?.message?.parts)),
    };
  }
  const answer = task.artifacts.map((artifact) => textOf(artifact.parts)).join('\n');
  if (!answer.includes(prompt.expect)) {
    return { ok: false, kind: `completed without "${prompt.expect}" in the answer`, detail: short(answer) };
  }
  return { ok: true, kind: 'ok' };
}

function failure(error: unknown, signal: AbortSignal): { ok: false; kind: string; detail: string } {
  if (signal.aborted) return { ok: false, kind: 'client timeout', detail: String(signal.reason) };
  const name = error instanceof Error ? error.constructor.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause ? ` (cause: ${String(error.cause)})` : '';
  // Grouped by class and message without numbers and ids, so one kind of error is one line.
  const kind = `${name}: ${short(message).replace(/[0-9a-f-]{8,}|\d+/g, '#')}`;
  return { ok: false, kind, detail: short(`${message}${cause}`) };
}

/** Options of {@link runLoad}. */
export interface LoadOptions {
  client: Client;
  requests: number;
  concurrency: number;
  /** Longest one call may take before the client gives up (counted as lost). */
  timeoutMs: number;
  /** Called about every `progressMs` with the outcomes so far. */
  onProgress?: (done: readonly Outcome[], elapsedMs: number) => void;
  progressMs?: number;
}

/** Sends `requests` calls, `concurrency` at once; resolves with every outcome and the wall time. */
export async function runLoad({
  client,
  requests,
  concurrency,
  timeoutMs,
  onProgress,
  progressMs = 10_000,
}: LoadOptions): Promise<{ outcomes: Outcome[]; wallMs: number }> {
  const outcomes: Outcome[] = [];
  let issued = 0;
  const start = performance.now();
  const progress = onProgress
    ? setInterval(() => onProgress(outcomes, performance.now() - start), progressMs)
    : undefined;
  const lane = async () => {
    while (issued < requests) {
      const prompt = SOAK_PROMPTS[issued % SOAK_PROMPTS.length] as SoakPrompt;
      issued++;
      const contextId = randomUUID();
      const signal = AbortSignal.timeout(timeoutMs);
      const began = performance.now();
      let judged: { ok: boolean; kind: string; detail?: string };
      try {
        judged = judge(await client.sendMessage(request(prompt.text, contextId), { signal }), prompt);
      } catch (error) {
        judged = failure(error, signal);
      }
      const ended = performance.now();
      outcomes.push({ contextId, prompt, ...judged, latencyMs: ended - began, endedAtMs: ended - start });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, requests) }, lane));
  } finally {
    clearInterval(progress);
  }
  return { outcomes, wallMs: performance.now() - start };
}
