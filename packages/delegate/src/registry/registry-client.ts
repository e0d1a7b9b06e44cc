import {
  type Client,
  ClientFactory,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type TransportFactory,
} from '@a2a-js/sdk/client';
import { BULLMQ_BINDING } from '@switchboard/a2a-bullmq';
import { DelegateError } from '../errors.ts';
import type { AgentRegistry } from './agent-registry.ts';
import type { RegistryEntry } from './registry-entry.ts';

/** Options of {@link clientFromRegistryEntry}. */
export interface RegistryClientOptions {
  /** A registry entry, as `registry.get(name)` returns it. */
  entry: RegistryEntry;
  /** The queue binding's factory, shared by the caller (omit it to reach agents over HTTP only). */
  queue?: TransportFactory;
  /** `queue` inside the cluster (default), `http` from outside it. */
  prefer?: 'queue' | 'http';
}

/**
 * An SDK `Client` for an agent found in the registry, over the binding its card offers that suits
 * the caller: the BullMQ queue inside the cluster, JSON-RPC or REST over HTTP from outside.
 *
 * @example
 * const entry = await registry.get('orders');
 * const client = await clientFromRegistryEntry({ entry, queue: queueFactory });
 */
export async function clientFromRegistryEntry({
  entry,
  queue,
  prefer = 'queue',
}: RegistryClientOptions): Promise<Client> {
  const http = ['JSONRPC', 'HTTP+JSON'];
  const order = prefer === 'queue' && queue ? [BULLMQ_BINDING, ...http] : http;
  const offered = new Set(entry.card.supportedInterfaces.map((entry) => entry.protocolBinding));
  if (!order.some((binding) => offered.has(binding))) {
    throw new DelegateError('INVALID_OPTIONS', {
      message:
        `Agent "${entry.name}" offers ${[...offered].join(', ') || 'no interface'}; this client can use ${order.join(', ')}. ${
          queue ? '' : 'Pass the queue transport factory to reach agents over their queue.'
        }`.trim(),
    });
  }
  const transports: TransportFactory[] = [
    ...(queue && prefer === 'queue' ? [queue] : []),
    new JsonRpcTransportFactory(),
    new RestTransportFactory(),
  ];
  return new ClientFactory({ transports, preferredTransports: order }).createFromAgentCard(entry.card);
}

/** Looks an agent up in the registry and creates a client for it; throws when it is not live. */
export async function clientForAgent({
  registry,
  name,
  ...rest
}: Omit<RegistryClientOptions, 'entry'> & { registry: AgentRegistry; name: string }): Promise<Client> {
  const entry = await registry.get(name);
  if (!entry) {
    const live = (await registry.list()).map((item) => item.name);
    throw new DelegateError('INVALID_OPTIONS', {
      message: `No live agent named "${name}" in the registry (live: ${live.join(', ') || 'none'}). Is its service running?`,
    });
  }
  return clientFromRegistryEntry({ entry, ...rest });
}
