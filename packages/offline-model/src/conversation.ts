import { type ChatMessage, parseToolResult, type ToolResultEnvelope } from '@switchboard/agent';
import { type KnownValues, normaliseKey } from './fill-arguments.ts';

/** One tool call made for the current request, with its result when it has arrived. */
export interface ToolStep {
  id: string;
  name: string;
  /** The parsed arguments; undefined when they were not a JSON object. */
  arguments: Record<string, unknown> | undefined;
  /** The arguments exactly as written, used to recognise a repeated call. */
  argumentsText: string;
  /** The result envelope; undefined when the result is missing or is not an envelope. */
  result: ToolResultEnvelope | undefined;
  /** The `tool` message content, when there is one. */
  content: string | undefined;
}

/** What the planner reads from a conversation: the request being served and what was done for it. */
export interface RequestView {
  /** The last user message; undefined when there is none. */
  request: string | undefined;
  /** Tool calls made after that message, in order. */
  steps: ToolStep[];
  /** Assistant messages in the whole conversation, used to number new tool calls uniquely. */
  assistantTurns: number;
}

function parseArguments(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the last user request and the tool calls and results that followed it. */
export function readConversation(messages: readonly ChatMessage[]): RequestView {
  const assistantTurns = messages.filter((message) => message.role === 'assistant').length;
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  const userMessage = messages[lastUser];
  if (userMessage?.role !== 'user') return { request: undefined, steps: [], assistantTurns };
  const after = messages.slice(lastUser + 1);
  const contents = new Map<string, string>();
  for (const message of after)
    if (message.role === 'tool') contents.set(message.tool_call_id, message.content);
  const steps: ToolStep[] = [];
  for (const message of after) {
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? []) {
      const content = contents.get(call.id);
      steps.push({
        id: call.id,
        name: call.function.name,
        arguments: parseArguments(call.function.arguments),
        argumentsText: call.function.arguments,
        result: content === undefined ? undefined : parseToolResult(content),
        content,
      });
    }
  }
  return { request: userMessage.content, steps, assistantTurns };
}

/** A key that is equal for the same tool with the same arguments, whatever their order. */
export function callKey(name: string, args: Record<string, unknown> | undefined, raw = ''): string {
  if (!args) return `${name}:${raw}`;
  const sorted = Object.keys(args)
    .sort()
    .map((key) => [key, args[key]]);
  return `${name}:${JSON.stringify(sorted)}`;
}

function collect(value: unknown, key: string | undefined, into: Map<string, unknown[]>, depth: number): void {
  if (key !== undefined && value !== null && value !== undefined) {
    const normalised = normaliseKey(key);
    into.set(normalised, [...(into.get(normalised) ?? []), value]);
  }
  if (depth >= 4 || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, 20)) collect(item, undefined, into, depth + 1);
    return;
  }
  for (const [child, item] of Object.entries(value)) collect(item, child, into, depth + 1);
}

/**
 * Values that later tool calls may reuse: the keys of successful results' data (nested objects and
 * arrays included), then the arguments of those calls; the most recent step first.
 */
export function knownValues(steps: readonly ToolStep[]): KnownValues {
  const known = new Map<string, unknown[]>();
  const succeeded = steps.filter((step) => step.result?.ok === true).reverse();
  for (const step of succeeded) if (step.result?.ok) collect(step.result.data, undefined, known, 0);
  for (const step of succeeded) collect(step.arguments ?? {}, undefined, known, 0);
  return known;
}
