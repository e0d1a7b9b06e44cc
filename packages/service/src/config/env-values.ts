import { z } from 'zod';

/** A token → name list, as `token1=alice,token2=bob`. */
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
      if (token.length < 16 || !/^[A-Za-z0-9\-._~+/]+$/.test(token)) {
        ctx.addIssue({
          code: 'custom',
          message: `the token for "${name}" must be at least 16 characters of letters, digits or -._~+/`,
        });
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
