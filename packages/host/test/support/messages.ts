import type { Message, SendMessageRequest } from '@a2a-js/sdk';
import { userMessage as buildUserMessage, sendMessageRequest } from '@switchboard/protocol';

/** A user message as the SDK's client sends it (the text, then the data part if any). */
export function userMessage(
  text: string,
  options: { messageId?: string; contextId?: string; taskId?: string; data?: unknown } = {},
): Message {
  return buildUserMessage({ ...(text ? { text } : {}), ...options });
}

/** A SendMessage request around a message. */
export function sendRequest(message: Message, returnImmediately = false): SendMessageRequest {
  return sendMessageRequest({ message, returnImmediately });
}
