import type { Message, Part } from '@a2a-js/sdk';

/** The JSON bytes of a value; nothing for an absent or empty object (as `metadata: {}` is). */
function jsonBytes(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return 0;
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}

function partBytes(part: Part): number {
  const content = part.content;
  let bytes = jsonBytes(part.metadata) + Buffer.byteLength(part.filename ?? '');
  if (!content) return bytes;
  if (content.$case === 'raw') bytes += content.value?.length ?? 0;
  else if (content.$case === 'data') bytes += jsonBytes(content.value);
  else bytes += Buffer.byteLength(content.value ?? '');
  return bytes;
}

/**
 * The bytes of what a message carries, as it would be stored: UTF-8 text, JSON of data parts and of
 * metadata, raw file bytes, URLs and file names. What the size limit counts.
 *
 * @example
 * messageContentBytes(userMessage({ text: 'héllo' })); // 6
 */
export function messageContentBytes(message: Message): number {
  let bytes = jsonBytes(message.metadata);
  for (const part of message.parts ?? []) bytes += partBytes(part);
  return bytes;
}
