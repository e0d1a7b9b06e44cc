import { contentTokens } from './lexical.ts';

/**
 * Splits a request into the smaller requests it joins ("cancel order A1 and send me the invoice"),
 * at sentence ends, semicolons and joining words. Returns fewer than two parts when there is nothing to
 * split: a part must keep at least one content word to be a request of its own.
 */
export function splitRequest(text: string): string[] {
  const parts = text
    .split(/[.?!;]+(?=\s|$)|\n|,?\s(?:and then|and also|and|also|plus|then)\s/i)
    .map((part) => part.trim())
    .filter((part) => contentTokens(part).length > 0);
  return parts.length >= 2 ? parts : [];
}
