import type { ChatRequest } from '@switchboard/agent';
import { DelayedModel } from '@switchboard/agent/testing';
import { OfflineModel } from '@switchboard/offline-model';

/** Which agent a model request comes from, by the tools it declares. */
export function agentOf(request: ChatRequest): 'orders' | 'inventory' | 'comms' | 'supervisor' | 'unknown' {
  const tools = new Set(request.tools?.map((tool) => tool.function.name));
  if (tools.has('get_order')) return 'orders';
  if (tools.has('check_stock')) return 'inventory';
  if (tools.has('extract_ticket')) return 'comms';
  return [...tools].some((name) => name.startsWith('orders_')) ? 'supervisor' : 'unknown';
}

/** The user's latest words in a model request. */
export function userText(request: ChatRequest): string {
  const user = [...request.messages].reverse().find((message) => message.role === 'user');
  return user?.role === 'user' ? user.content : '';
}

/**
 * The offline planner with a latency chosen per request, to serve behind a scripted
 * OpenAI-compatible server, so drills can act while work is in flight.
 */
export function delayedOffline(delayMs: (request: ChatRequest) => number): DelayedModel {
  return new DelayedModel({ model: new OfflineModel(), delayMs, modelId: 'scripted-offline' });
}
