import { inert } from '@switchboard/protocol';
import escapeHtml from 'escape-html';

const SAFE = Symbol('@switchboard/console.safe-html');

/** Markup the console wrote itself: the only thing {@link html} places without escaping. */
export interface SafeHtml {
  readonly [SAFE]: true;
  readonly markup: string;
}

/** A value a page places: text (escaped), markup of ours, a list of either, or nothing. */
export type Placed = SafeHtml | string | number | boolean | null | undefined | readonly Placed[];

const safe = (markup: string): SafeHtml => ({ [SAFE]: true, markup });

function isSafe(value: unknown): value is SafeHtml {
  return typeof value === 'object' && value !== null && SAFE in value;
}

/**
 * What someone else wrote (a user, a model, a tool), made inert before it is escaped: every control
 * character, escape sequence and bidirectional override shows as its escape (`\x1b`, `\u202e`), so it
 * reads as what it is; line feeds stay with `lines: true` (shown by `white-space: pre-wrap`).
 */
export function shown(text: string, { lines = false }: { lines?: boolean } = {}): string {
  return inert(text, { lines });
}

function place(value: Placed): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map((item: Placed) => place(item)).join('');
  if (isSafe(value)) return value.markup;
  // Text by default: inert, then escaped by escape-html (& < > " '), so it is safe in content and
  // in a quoted attribute alike.
  return escapeHtml(shown(String(value), { lines: true }));
}

/**
 * The console's one way to write markup: a tagged template whose every interpolation is text,
 * made inert and escaped, unless it is markup this tag made. Nothing a user or a model wrote can
 * become markup, an attribute or a script.
 *
 * @example
 * html`<p title="${approval.agent}">${approval.action}</p>`
 */
export function html(strings: TemplateStringsArray, ...values: readonly Placed[]): SafeHtml {
  let markup = strings[0] ?? '';
  values.forEach((value, index) => {
    markup += place(value) + (strings[index + 1] ?? '');
  });
  return safe(markup);
}
