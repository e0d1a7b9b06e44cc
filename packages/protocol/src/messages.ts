import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role, type SendMessageRequest } from '@a2a-js/sdk';

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

/**
 * A message from the user: its text and/or a data part, in a conversation (`contextId`) and task
 * (`taskId`) when given, with a fresh `messageId` unless one is given (to make a retry idempotent).
 */
export function userMessage({
  text,
  data,
  contextId = '',
  taskId = '',
  messageId = randomUUID(),
  metadata = {},
}: {
  text?: string;
  data?: unknown;
  contextId?: string;
  taskId?: string;
  messageId?: string;
  metadata?: Record<string, unknown>;
}): Message {
  return {
    messageId,
    role: Role.ROLE_USER,
    parts: [...(text === undefined ? [] : [textPart(text)]), ...(data === undefined ? [] : [dataPart(data)])],
    contextId,
    taskId,
    metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

/**
 * A `SendMessage` request for a message: blocking by default, or returning as soon as the task
 * exists with `returnImmediately`.
 *
 * @example
 * await client.sendMessage(sendMessageRequest({ message: userMessage({ text: 'Where is order A20417?' }) }));
 */
export function sendMessageRequest({
  message,
  returnImmediately = false,
}: {
  message: Message;
  returnImmediately?: boolean;
}): SendMessageRequest {
  return {
    tenant: '',
    message,
    configuration: returnImmediately
      ? { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true }
      : undefined,
    metadata: {},
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
