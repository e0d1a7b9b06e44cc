import type { Product } from './shop-records.ts';

/** `Kettles` → `kettle`, `boxes` → `box`: enough to match a customer's plural with a product word. */
function singular(word: string): string {
  if (word.length > 4 && /(ch|sh|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The lower-case singular words of a text. */
export function productWords(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(singular));
}

/**
 * The products that share the most words with a query, matching name, colour and category
 * (`"Is the blue kettle in stock?"` → the blue kettle; `"kettles"` → every kettle). Words of the query
 * that describe no product are ignored; empty when no word matches.
 */
export function matchProducts<T extends Product>(products: readonly T[], query: string): T[] {
  const asked = productWords(query);
  const scored = products.map((product) => {
    const vocabulary = productWords(`${product.name} ${product.colour} ${product.category}`);
    return { product, score: [...vocabulary].filter((word) => asked.has(word)).length };
  });
  const best = Math.max(0, ...scored.map(({ score }) => score));
  return best === 0 ? [] : scored.filter(({ score }) => score === best).map(({ product }) => product);
}
