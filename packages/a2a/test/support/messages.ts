import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role, type SendMessageRequest } from '@a2a-js/sdk';
import { dataPart, textPart } from '../../src/index.js';

/** A user message as the SDK's client sends it. */
export function userMessage(
  text: string,
  {
    messageId = randomUUID(),
    contextId = '',
    taskId = '',
    data,
  }: { messageId?: string; contextId?: string; taskId?: string; data?: unknown } = {},
): Message {
  const parts: Part[] = text ? [textPart(text)] : [];
  if (data !== undefined) parts.push(dataPart(data));
  return {
    messageId,
    role: Role.ROLE_USER,
    parts,
    contextId,
    taskId,
    metadata: {},
    extensions: [],
    referenceTaskIds: [],
  };
}

/** A SendMessage request around a message. */
export function sendRequest(message: Message, returnImmediately = false): SendMessageRequest {
  return {
    tenant: '',
    message,
    configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately },
    metadata: {},
  };
}
