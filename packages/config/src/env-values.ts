import { z } from 'zod';
import { MAKE_A_SECRET, placeholderProblem, secretProblem } from './secret-strength.ts';

/** The characters of a bearer token, at least 16 of them. */
const TOKEN_SHAPE = /^[A-Za-z0-9\-._~+/]{16,}$/;

/**
 * A secret token: 16+ characters of letters, digits or `-._~+/`, no placeholder, no run of one
 * character or of consecutive ones, and enough entropy (see `secretProblem`).
 */
export const SecretToken = z
  .string({ error: 'is required: the token services present to each other (16+ characters)' })
  .superRefine((value, ctx) => {
    const problem = tokenProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** What is wrong with a token: a placeholder first (the likeliest), then its shape, then its strength. */
function tokenProblem(token: string): string | undefined {
  const placeholder = placeholderProblem(token);
  if (placeholder) return `${placeholder}; ${MAKE_A_SECRET}`;
  if (!TOKEN_SHAPE.test(token)) return 'must be at least 16 characters of letters, digits or -._~+/';
  return secretProblem(token);
}

/** A token → name list, as `token1=alice,token2=bob`; each token as strong as a {@link SecretToken}. */
export const TokenList = z
  .string()
  .trim()
  .min(1, 'is empty; write token=name pairs, e.g. "tok-7f3a…=alice,tok-91c2…=bob"')
  .transform((value, ctx) => {
    const tokens: Record<string, string> = {};
    for (const pair of value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean)) {
      const [token, name, ...rest] = pair.split('=');
      if (!token || !name || rest.length > 0) {
        ctx.addIssue({ code: 'custom', message: `"${pair.slice(0, 12)}…" is not token=name` });
        return z.NEVER;
      }
      const weak = tokenProblem(token);
      if (weak) {
        ctx.addIssue({ code: 'custom', message: `the token for "${name}" ${weak}` });
        return z.NEVER;
      }
      tokens[token] = name;
    }
    return tokens;
  });

/** A TCP port. */
export const Port = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be 1-65535')
  .max(65_535, 'must be 1-65535');

/** A whole number of at least `min`, e.g. a count or a size. */
export const WholeNumber = (min: number) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(min, `must be at least ${min}`);

/** On or off: `true` or `false` in any case, nothing else, so a typo is an error rather than off. */
export const Switch = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(
    z.enum(['true', 'false'], { error: (issue) => `must be true or false, not "${String(issue.input)}"` }),
  )
  .transform((value) => value === 'true');

/** A positive duration in milliseconds. */
export const Millis = z.coerce.number({ error: 'must be a number of milliseconds' }).int().positive();

/** An http(s) URL. */
export const HttpUrl = z
  .string()
  .trim()
  .refine((value) => /^https?:\/\/[^/\s]+/.test(value), 'must be an http:// or https:// URL');

/** A redis:// URL. */
export const RedisUrl = z
  .string()
  .trim()
  .refine((value) => /^rediss?:\/\/[^\s]+$/.test(value), 'must be a redis:// or rediss:// URL');
