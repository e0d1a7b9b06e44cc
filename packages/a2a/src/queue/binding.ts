import { A2aError } from '../errors.ts';

/**
 * The `protocolBinding` URI of Switchboard's A2A binding over BullMQ queues (a custom binding, A2A
 * spec §12). A breaking change of the envelope gets a new URI.
 */
export const BULLMQ_BINDING = 'urn:switchboard:a2a:binding:bullmq:v1';

/** Where an agent's queue is: its BullMQ queue name and key prefix (a Redis Cluster hash tag). */
export interface QueueAddress {
  queue: string;
  prefix: string;
}

/** The queue address as the URL published in the card: `bullmq://queue/<name>?prefix=<prefix>`. */
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
    throw new A2aError('INVALID_OPTIONS', {
      message: `"${url}" is not a BullMQ queue URL; expected bullmq://queue/<name>?prefix=<prefix>, e.g. bullmq://queue/orders?prefix=%7Bsb%3Aorders%7D.`,
    });
  }
  return { queue, prefix };
}

/** The default address of an agent's queue: one hash-tagged prefix per agent, for Redis Cluster. */
export function defaultQueueAddress(agentName: string, namespace = 'switchboard'): QueueAddress {
  return { queue: `a2a.${agentName}`, prefix: `{${namespace}:${agentName}}` };
}
