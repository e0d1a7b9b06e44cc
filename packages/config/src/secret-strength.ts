/** How to make a secret that passes {@link secretProblem}. */
export const MAKE_A_SECRET = 'make one with `openssl rand -hex 32`';

/** The least estimated entropy a secret may have, in bits. */
export const MIN_SECRET_BITS = 64;

/** Words that mark a value someone was meant to replace (compared without case or separators). */
const PLACEHOLDER_WORDS = ['replaceme', 'changeme', 'example', 'placeholder', 'secret', 'password', 'token'];

/** A run of `length` characters that each follow the previous one up or down (`0123…`, `fedc…`). */
function sequenceRun(value: string, length: number): boolean {
  let up = 1;
  let down = 1;
  for (let i = 1; i < value.length; i++) {
    const step = value.charCodeAt(i) - value.charCodeAt(i - 1);
    up = step === 1 ? up + 1 : 1;
    down = step === -1 ? down + 1 : 1;
    if (up >= length || down >= length) return true;
  }
  return false;
}

/**
 * A simple entropy estimate, in bits: the Shannon entropy of the value's own character frequencies
 * times its length. A random 32-byte hex string scores about 250; `aaaa…` scores 0.
 */
export function estimateSecretBits(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  const length = [...value].length;
  let perChar = 0;
  for (const count of counts.values()) perChar -= (count / length) * Math.log2(count / length);
  return perChar * length;
}

/**
 * Why a value is a placeholder someone was meant to replace (`REPLACE_ME`, `changeme`, `example`,
 * `placeholder`, `secret`, `password`, `token`, `xxxx`, `your-…`), or undefined. Compared without
 * case or separators; the reason names the word, never the value.
 *
 * @example
 * placeholderProblem('your-api-key'); // 'is a placeholder (it starts with "your")'
 */
export function placeholderProblem(value: string): string | undefined {
  const plain = value.toLowerCase().replace(/[^a-z0-9]/g, '');
  const word = PLACEHOLDER_WORDS.find((placeholder) => plain.includes(placeholder));
  if (word) return `is a placeholder (it contains "${word}")`;
  if (plain.startsWith('your')) return 'is a placeholder (it starts with "your")';
  // Case-sensitive: a random mixed-case token holds "xXxX" far more often than "xxxx".
  if (/xxxx|XXXX/.test(value)) return 'is a placeholder (it contains "xxxx")';
  return undefined;
}

/**
 * Why a secret (a token, a signing secret) is not fit to use, or undefined when it is: a
 * placeholder ({@link placeholderProblem}), a run of one repeated character or of consecutive ones
 * (`0123456789`), or too little entropy (under {@link MIN_SECRET_BITS} by {@link estimateSecretBits}).
 * The reason never repeats the secret, and says how to make a good one.
 *
 * @example
 * secretProblem('REPLACE_ME-service-token'); // 'is a placeholder (it contains "replaceme"); make one with `openssl rand -hex 32`'
 */
export function secretProblem(value: string): string | undefined {
  const placeholder = placeholderProblem(value);
  if (placeholder) return `${placeholder}; ${MAKE_A_SECRET}`;
  if (/(.)\1{7}/.test(value)) return `repeats one character 8 times or more; ${MAKE_A_SECRET}`;
  if (sequenceRun(value, 8)) {
    return `has a run of 8 or more consecutive characters (such as 01234567 or abcdefgh); ${MAKE_A_SECRET}`;
  }
  const bits = Math.floor(estimateSecretBits(value));
  if (bits < MIN_SECRET_BITS) {
    return `is too easy to guess (about ${bits} bits of entropy, at least ${MIN_SECRET_BITS} needed); ${MAKE_A_SECRET}`;
  }
  return undefined;
}
