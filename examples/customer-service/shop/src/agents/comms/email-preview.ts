/** How much of an email's body the approval's details show before cutting it short. */
export const PREVIEW_LINES = 20;
export const PREVIEW_CHARACTERS = 1_500;

/**
 * An email's body as the approver reads it under the action: whole when it is short, else its
 * first lines and how much more there is (the whole body is always in the request's arguments).
 *
 * @example
 * emailPreview('Dear Ada,\nYour refund is on its way.'); // 'Body:\nDear Ada,\nYour refund is on its way.'
 */
export function emailPreview(body: string): string {
  const lines = body.split('\n');
  let shown = lines.slice(0, PREVIEW_LINES).join('\n');
  if (shown.length > PREVIEW_CHARACTERS) shown = shown.slice(0, PREVIEW_CHARACTERS);
  if (shown.length === body.length) return `Body:\n${body}`;
  const shownLines = shown.split('\n').length;
  return [
    `Body (the first ${shownLines} of ${lines.length} lines; the whole body is in the arguments):`,
    shown,
    `[… ${body.length - shown.length} more characters]`,
  ].join('\n');
}
