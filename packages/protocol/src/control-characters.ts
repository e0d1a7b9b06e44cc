/**
 * Whether a terminal acts on this character, or it changes how the text around it reads, rather
 * than shows: C0 controls (ESC starts an escape sequence, CR returns to the line's start, LF starts
 * a line, BS steps back), DEL, C1 controls (U+009B is a one-byte CSI), bidirectional overrides,
 * embeddings, isolates and marks, line and paragraph separators, and zero-width characters. What a
 * user wrote is shown with these escaped (the CLI's views) and refused where one line of plain text
 * is meant (an email's subject).
 */
export function isControlCharacter(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x061c ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x2069) ||
    code === 0xfeff
  );
}

/**
 * The first {@link isControlCharacter} in `text`, as `U+000D`, or undefined when there is none;
 * with `lines: true` line feeds and tabs are allowed (a body of several lines).
 *
 * @example
 * const Subject = z.string().refine((text) => !controlCharacterIn(text), 'must be one line of plain text');
 */
export function controlCharacterIn(
  text: string,
  { lines = false }: { lines?: boolean } = {},
): string | undefined {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (lines && (code === 0x0a || code === 0x09)) continue;
    if (isControlCharacter(code)) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return undefined;
}
