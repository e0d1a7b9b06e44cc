import { StreamResponse } from '@a2a-js/sdk';
import { EVENT_POSITION_KEY } from '@switchboard/protocol';

/** A stream being read in the background: what came so far, and how it ended. */
export interface Collected {
  readonly events: StreamResponse[];
  /** Resolves when the stream ends; rejects with its error. */
  readonly done: Promise<void>;
  /**
   * Resolves once `count` events have come (or one that `count` accepts); rejects if the stream ends
   * (or fails) first.
   */
  until(count: number | ((event: StreamResponse) => boolean)): Promise<void>;
}

/** Reads a stream in the background. */
export function collect(stream: AsyncIterable<StreamResponse>): Collected {
  const events: StreamResponse[] = [];
  let ended = false;
  let failure: unknown;
  const done = (async () => {
    try {
      for await (const event of stream) events.push(event);
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      ended = true;
    }
  })();
  done.catch(() => {});
  return {
    events,
    done,
    async until(count) {
      const met = () => (typeof count === 'number' ? events.length >= count : events.some(count));
      while (!met()) {
        if (ended)
          throw failure ?? new Error(`the stream ended after ${events.length} events, short of ${count}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}

/** The position an event carries (see `EVENT_POSITION_KEY`). */
export function positionOf(event: StreamResponse | undefined): number | undefined {
  const position = event?.payload?.value.metadata?.[EVENT_POSITION_KEY];
  return typeof position === 'number' ? position : undefined;
}

/** An event without its position, to compare contents across streams. */
export function withoutPosition(event: StreamResponse): unknown {
  const json = JSON.parse(JSON.stringify(StreamResponse.toJSON(event))) as Record<
    string,
    { metadata?: Record<string, unknown> }
  >;
  for (const value of Object.values(json)) delete value.metadata?.[EVENT_POSITION_KEY];
  return json;
}

/** One SSE event as it came over the wire. */
export interface SseEvent {
  id: string | undefined;
  event: StreamResponse;
}

/**
 * Subscribes to a task over the HTTP+JSON binding (v1.0) with a raw `fetch`, parsing the SSE itself
 * so the `id:` lines can be seen; stops (cutting the connection) after `stopAfter` events if given.
 */
export async function readSse({
  baseUrl,
  taskId,
  token,
  lastEventId,
  query = '',
  stopAfter,
  onEvent = () => {},
}: {
  baseUrl: string;
  taskId: string;
  token: string;
  lastEventId?: string;
  query?: string;
  stopAfter?: number;
  /** Called with each event as it comes. */
  onEvent?: (event: SseEvent) => void;
}): Promise<SseEvent[]> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/a2a/rest/tasks/${taskId}:subscribe${query}`, {
    headers: {
      authorization: `Bearer ${token}`,
      'a2a-version': '1.0',
      ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
    },
    signal: controller.signal,
  });
  if (!response.ok || !response.body) {
    throw new Error(`subscribe answered ${response.status}: ${await response.text()}`);
  }
  const events: SseEvent[] = [];
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) return events;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        const lines = block.split('\n');
        const id = lines.find((line) => line.startsWith('id: '))?.slice(4);
        const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
        if (lines.some((line) => line === 'event: error')) throw new Error(`stream error: ${data}`);
        if (data === undefined) continue;
        const read = { id, event: StreamResponse.fromJSON(JSON.parse(data)) };
        events.push(read);
        onEvent(read);
        if (stopAfter !== undefined && events.length >= stopAfter) {
          controller.abort();
          return events;
        }
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
