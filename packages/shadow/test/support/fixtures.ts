import type { Message, Part, SendMessageRequest } from '@a2a-js/sdk';
import { defineTool } from '@switchboard/agent';
import { generateServiceKey } from '@switchboard/identity';
import { userMessage as buildUserMessage, sendMessageRequest } from '@switchboard/protocol';
import { z } from 'zod';

/** A user message as the SDK's client sends it (the text, then the data part if any). */
export const userMessage = (text: string, options: { contextId?: string; data?: unknown } = {}): Message =>
  buildUserMessage({ ...(text ? { text } : {}), ...options });

/** The supervisor's signing key in these tests: what a shadow's delegations are signed with. */
export const SUPERVISOR_KEY = generateServiceKey({ service: 'supervisor', label: 'test' });

/** A blocking SendMessage request. */
export const send = (message: Message): SendMessageRequest => sendMessageRequest({ message });

/** The text of some parts, joined. */
export const partsText = (parts: readonly Part[]): string =>
  parts.flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : [])).join('\n');

/** The data parts of a message. */
export const dataOf = (message: Message | undefined): unknown[] =>
  (message?.parts ?? []).flatMap((part) => (part.content?.$case === 'data' ? [part.content.value] : []));

// jscpd:ignore-start
// The refund of the shadow's tests: the same declaration as hosting's tests use (packages/host/test),
// which a package's tests cannot import (they reach other packages through their names only).
/**
 * `refund_order`: dangerous, so each call waits for an approval of "Refund order <id> in full
 * (59.90 EUR)", which cannot be undone; `onRefund` is told each time it really runs.
 */
export function refundTool({ onRefund = () => {} }: { onRefund?: () => void } = {}) {
  return defineTool({
    name: 'refund_order',
    summary: 'Refund an order in full.',
    whenToUse: 'The customer asks for their money back.',
    whenNotToUse: 'The customer only asks about the status.',
    input: z.object({ orderId: z.string().regex(/^A\d{5}$/) }),
    risk: 'dangerous',
    describeForApproval: ({ orderId }) => ({
      action: `Refund order ${orderId} in full (59.90 EUR)`,
      reversible: false,
    }),
    handler: ({ orderId }) => {
      onRefund();
      return { refunded: orderId };
    },
  });
}
// jscpd:ignore-end
