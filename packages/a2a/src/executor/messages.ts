import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role } from '@a2a-js/sdk';

/** A text part. */
export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, mediaType: 'text/plain', filename: '', metadata: {} };
}

/** A JSON data part. */
export function dataPart(value: unknown): Part {
  return { content: { $case: 'data', value }, mediaType: 'application/json', filename: '', metadata: {} };
}

/** A message from the agent, for status updates. */
export function agentMessage({
  taskId,
  contextId,
  parts,
  metadata = {},
}: {
  taskId: string;
  contextId: string;
  parts: Part[];
  metadata?: Record<string, unknown>;
}): Message {
  return {
    messageId: randomUUID(),
    role: Role.ROLE_AGENT,
    taskId,
    contextId,
    parts,
    metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The text and the data parts of a message. */
export function readMessage(message: Message): { text: string; data: unknown[] } {
  const texts: string[] = [];
  const data: unknown[] = [];
  for (const part of message.parts) {
    if (part.content?.$case === 'text') texts.push(part.content.value);
    else if (part.content?.$case === 'data') data.push(part.content.value);
  }
  return { text: texts.join('\n').trim(), data };
}
