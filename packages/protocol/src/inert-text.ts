import { isControlCharacter } from './control-characters.ts';

const escaped = (code: number): string => {
  // C0 as \x1b, the rest as \u202e: both read as what they are, and \u form stays valid inside JSON.
  return code < 0x20
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
};

/**
 * Text someone else wrote (a user's message, an email subject a model filled in, a context id, a
 * log line's fields), made inert for a terminal: every control character, escape sequence and
 * bidirectional override (`isControlCharacter`) shows as its escape (`\x1b`, `\x0d`, `\u202e`) instead of acting. By
 * default a line feed is escaped too (`\x0a`), so a one-line field can never start a line of its
 * own; with `lines: true` line feeds and tabs stay, for text shown as several lines.
 *
 * Every CLI view goes through it (each field it places on a line, and each line it writes,
 * `processOutput`), and the console renders what others wrote through it before escaping it.
 *
 * @example
 * inert('Refund\u001b[8m hidden') // 'Refund\\x1b[8m hidden'
 */
export function inert(text: string, { lines = false }: { lines?: boolean } = {}): string {
  let shown = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const kept = lines && (code === 0x0a || code === 0x09);
    shown += !kept && isControlCharacter(code) ? escaped(code) : char;
  }
  return shown;
}
