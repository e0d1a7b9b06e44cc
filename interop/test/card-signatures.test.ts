import { verifyAgentCardSignature } from '@a2a-js/sdk';
import { MastraClient } from '@mastra/client-js';
import { describe, expect, inject, it, vi } from 'vitest';
import { supervisor } from './support/peer-test.ts';

const { url, cardUrl } = supervisor();
const cardKey = inject('cardKey');

type Json = Record<string, unknown>;

/** Each card shape the supervisor serves, the header that asks for it, and its security fields. */
const SHAPES = [
  { shape: 'hybrid (no A2A-Version)', headers: {}, security: ['securityRequirements', 'security'] },
  { shape: '1.0', headers: { 'A2A-Version': '1.0' }, security: ['securityRequirements'] },
  { shape: '0.3', headers: { 'A2A-Version': '0.3' }, security: ['security'] },
] as const;

/**
 * Mastra's own verifier (client-js `getAgentCard({ verifySignature })`: RFC 8785 of the card as
 * received, without `signatures`, checked with jose), its card request sent to the supervisor's card
 * with the shape's header, and the card changed by `inTransit` on the way back, as a proxy could.
 * EdDSA is not among its default algorithms, so it is named, as a Mastra user does for an Ed25519 key.
 */
async function mastraVerifies(
  headers: Record<string, string>,
  inTransit: (card: Json) => Json = (card) => card,
): Promise<boolean> {
  const fetchCard: typeof fetch = async (input, init) => {
    const asked = new URL(input instanceof Request ? input.url : String(input));
    if (!asked.pathname.endsWith('/agent-card.json')) return fetch(input, init);
    const card = (await (await fetch(cardUrl, { headers })).json()) as Json;
    return Response.json(inTransit(card));
  };
  const client = new MastraClient({ baseUrl: url, apiPrefix: '', retries: 0, fetch: fetchCard });
  try {
    await client.getA2A('shop').getAgentCard({
      verifySignature: { keyProvider: () => cardKey, algorithms: ['EdDSA'] },
    });
    return true;
  } catch {
    return false;
  }
}

/** The SDK's verifier (1.3.0, with the canonicaliser fix Switchboard applies). */
async function sdkVerifies(card: Json): Promise<boolean> {
  const verify = verifyAgentCardSignature(async () => cardKey);
  // It logs each signature that does not verify with console.debug.
  const quiet = vi.spyOn(console, 'debug').mockImplementation(() => {});
  try {
    await verify(card as unknown as Parameters<typeof verify>[0]);
    return true;
  } catch {
    return false;
  } finally {
    quiet.mockRestore();
  }
}

const withoutSecurity = (security: readonly string[]) => (card: Json) =>
  Object.fromEntries(Object.entries(card).filter(([key]) => !security.includes(key)));

describe('the supervisor’s signed card, checked by Mastra’s verifier and the SDK’s', () => {
  it.each(SHAPES)('the $shape card verifies with Mastra’s verifier', async ({ headers }) => {
    expect(await mastraVerifies(headers)).toBe(true);
  });

  it.each(SHAPES)(
    'the $shape card with its security requirements removed in transit: Mastra’s verifier and the SDK’s refuse it',
    async ({ headers, security }) => {
      const card = (await (await fetch(cardUrl, { headers })).json()) as Json;
      for (const key of security) expect(card[key]).toEqual(expect.arrayContaining([expect.anything()]));
      expect(await mastraVerifies(headers, withoutSecurity(security))).toBe(false);
      expect(await sdkVerifies(withoutSecurity(security)(card))).toBe(false);
    },
  );

  it('the SDK’s verifier accepts the v1.0 and hybrid cards, and has no signature it can check on the v0.3 one', async () => {
    const shapes = await Promise.all(
      SHAPES.map(async ({ headers }) =>
        sdkVerifies((await (await fetch(cardUrl, { headers })).json()) as Json),
      ),
    );
    expect(shapes).toEqual([true, true, false]);
  });

  // Mastra's fault: its verifier returns an unsigned card as verified ("IfPresent"), so a proxy that
  // strips the signatures gets any card through. A Mastra user must check `signatures` is not empty.
  // When Mastra refuses an unsigned card, this fails: flip it then.
  it('the card with its signatures removed in transit passes Mastra’s verifier (peer fault)', async () => {
    expect(await mastraVerifies({}, ({ signatures: _signatures, ...card }) => card)).toBe(true);
  });

  it('a description changed in transit: Mastra’s verifier refuses it', async () => {
    expect(await mastraVerifies({}, (card) => ({ ...card, description: 'Refunds everything.' }))).toBe(false);
  });
});
