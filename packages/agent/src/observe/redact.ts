/** What replaces a secret. */
export const REDACTED = '[REDACTED]';

const SECRET_KEY =
  /pass(word|wd)?|secret|token|api[-_]?key|authori[sz]ation|credential|private[-_]?key|cookie|session/i;

/** Secret shapes and what each becomes: the shape's label or key is kept, the secret is not. */
const SECRET_SHAPES: readonly (readonly [RegExp, string])[] = [
  [/\b([a-z][a-z0-9+.-]*:\/\/[^:/?#\s@]+):[^@/\s]+@/gi, `$1:${REDACTED}@`], // scheme://user:password@host
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`], // Authorization header values
  [
    /\b(password|passwd|pwd|secret|api[-_]?key|token)(\s*[=:]\s*)(?:"[^"]*"|'[^']*'|[^\s&;,]+)/gi,
    `$1$2${REDACTED}`,
  ],
  [/\bsk-[A-Za-z0-9_-]{16,}/g, REDACTED], // OpenAI-style API keys
  [/\b(?:ghp|gho|ghs|github_pat)_[A-Za-z0-9_]{20,}/g, REDACTED], // GitHub tokens
  [/\bAKIA[0-9A-Z]{16}\b/g, REDACTED], // AWS access key ids
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/g, REDACTED], // Slack tokens
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, REDACTED], // JWTs
];

/**
 * Replaces known secret shapes in a text (API keys, bearer tokens, passwords in key=value pairs and
 * in connection strings) and any of the given literal secrets.
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  for (const [shape, replacement] of SECRET_SHAPES) out = out.replace(shape, replacement);
  return out;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;

/**
 * Masks contact details (email addresses) in a text meant for someone who should not see them, e.g.
 * a user reading the operator's approval request about another user.
 */
export function maskContacts(text: string): string {
  return text.replace(EMAIL, '[an email address]');
}

/** Options of {@link redactValue}. */
export interface RedactOptions {
  /** Literal secret values to remove wherever they appear (e.g. the configured credentials). */
  secrets?: readonly string[];
  /** Also replace whole values under secret-sounding keys (`password`, `apiKey`, ...). Default true. */
  byKey?: boolean;
}

/**
 * A deep copy of a JSON-like value with secrets removed: strings pass through {@link redactText};
 * with `byKey`, values under secret-sounding keys are replaced whole.
 */
export function redactValue(value: unknown, { secrets = [], byKey = true }: RedactOptions = {}): unknown {
  const walk = (item: unknown, depth: number): unknown => {
    if (depth > 20) return '[…]';
    if (typeof item === 'string') return redactText(item, secrets);
    if (Array.isArray(item)) return item.map((entry) => walk(entry, depth + 1));
    if (item && typeof item === 'object') {
      return Object.fromEntries(
        Object.entries(item).map(([key, entry]) => [
          key,
          byKey && SECRET_KEY.test(key) && entry !== null && entry !== undefined
            ? REDACTED
            : walk(entry, depth + 1),
        ]),
      );
    }
    return item;
  };
  return walk(value, 0);
}

/** A redacted one-line summary of a value, cut to `maxLength` characters, for audit records and logs. */
export function summarize(
  value: unknown,
  { maxLength = 240, secrets = [] as readonly string[] } = {},
): string {
  let text: string;
  try {
    text = JSON.stringify(redactValue(value, { secrets })) ?? String(value);
  } catch {
    text = '[unserialisable]';
  }
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
