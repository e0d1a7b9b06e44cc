import { QueueBindingError } from '../errors.ts';

/**
 * The `protocolBinding` URI of the A2A binding over BullMQ queues (a custom binding, A2A spec §12),
 * as an agent card's interface names it and as the SDK's `ClientFactory` matches it. A breaking
 * change of the envelope gets a new URI.
 */
export const BULLMQ_BINDING = 'urn:switchboard:a2a:binding:bullmq:v1';

/** Where an agent's queue is: its BullMQ queue name and key prefix (a Redis Cluster hash tag). */
export interface QueueAddress {
  queue: string;
  prefix: string;
}

/**
 * The queue address as the URL published in the card: `bullmq://queue/<name>?prefix=<prefix>`. It
 * carries no Redis address or password: callers use their own Redis connection.
 *
 * @example
 * const iface = { url: queueUrl(defaultQueueAddress('orders')), protocolBinding: BULLMQ_BINDING };
 */
export function queueUrl({ queue, prefix }: QueueAddress): string {
  return `bullmq://queue/${encodeURIComponent(queue)}?prefix=${encodeURIComponent(prefix)}`;
}

/** Reads a queue URL from a card back into an address; throws a clear error when it is not one. */
export function parseQueueUrl(url: string): QueueAddress {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    parsed = new URL('invalid:');
  }
  const queue = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  const prefix = parsed.searchParams.get('prefix');
  if (parsed.protocol !== 'bullmq:' || parsed.host !== 'queue' || !queue || !prefix) {
    throw new QueueBindingError('INVALID_OPTIONS', {
      message: `"${url}" is not a BullMQ queue URL; expected bullmq://queue/<name>?prefix=<prefix>, e.g. bullmq://queue/orders?prefix=%7Bsb%3Aorders%7D.`,
    });
  }
  return { queue, prefix };
}

/**
 * The default address of an agent's queue: `a2a.<agent>` under one hash-tagged prefix per agent
 * (`{<namespace>:<agent>}`, default namespace `switchboard`), so each queue's keys share one Redis
 * Cluster slot.
 */
export function defaultQueueAddress(agentName: string, namespace = 'switchboard'): QueueAddress {
  return { queue: `a2a.${agentName}`, prefix: `{${namespace}:${agentName}}` };
}
