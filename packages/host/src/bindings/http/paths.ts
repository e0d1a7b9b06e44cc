import type { CardInterface } from '../../card/build-card.ts';

/** Where {@link createA2aHttpApp} serves each endpoint. */
export const A2A_HTTP_PATHS = {
  jsonRpc: '/a2a/jsonrpc',
  rest: '/a2a/rest',
  agentCard: '/.well-known/agent-card.json',
  /**
   * Where A2A clients before 0.3 (`@a2a-js/sdk` 0.2.x) ask for the card: the same card, served while
   * `legacyCompat` is on.
   */
  legacyAgentCard: '/.well-known/agent.json',
  health: '/healthz',
  ready: '/readyz',
} as const;

/**
 * The card interfaces of an agent served by {@link createA2aHttpApp} at `baseUrl`: JSON-RPC first
 * (the preferred binding), then HTTP+JSON, both A2A v1.0.
 *
 * @example
 * buildAgentCard({ agent, interfaces: a2aHttpInterfaces({ baseUrl: 'https://orders.example.com' }) });
 */
export function a2aHttpInterfaces({ baseUrl }: { baseUrl: string }): CardInterface[] {
  const base = baseUrl.replace(/\/+$/, '');
  return [
    { url: `${base}${A2A_HTTP_PATHS.jsonRpc}`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: `${base}${A2A_HTTP_PATHS.rest}`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  ];
}
