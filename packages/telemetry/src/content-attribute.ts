import { redactText, redactValue } from '@switchboard/agent';

/** The default cap on a content attribute, in characters. */
export const DEFAULT_MAX_CONTENT_LENGTH = 4096;

/**
 * Content offered by the agent runtime (prompts, model output, tool arguments and results) as one
 * span attribute value: redacted of secret shapes, serialised as JSON, cut to `maxLength`.
 * JSON given as text (tool arguments arrive that way) is parsed first, so secret-sounding keys are
 * redacted too.
 */
export function contentAttribute({ value, maxLength }: { value: unknown; maxLength: number }): string {
  const text = typeof value === 'string' ? redactString(value) : serialise(redactValue(value));
  return text.length > maxLength ? `${text.slice(0, Math.max(0, maxLength - 1))}…` : text;
}

function redactString(value: string): string {
  const trimmed = value.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return serialise(redactValue(JSON.parse(value)));
    } catch {
      // not JSON after all: plain text
    }
  }
  return redactText(value);
}

function serialise(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '[unserialisable]';
  }
}
