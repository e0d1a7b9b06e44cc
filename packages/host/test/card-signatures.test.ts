import { verifyAgentCardSignature } from '@a2a-js/sdk';
import { cardSigner, checkCardSignatures, trustedCardKeys, verifyCardSignature } from '@switchboard/cards';
import { generateServiceKey } from '@switchboard/identity';
import canonicalize from 'canonicalize';
import { base64url, flattenedVerify, importJWK, type JWK } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { type Host, startHost } from './support/http-host.ts';

const CARD_PATH = '/.well-known/agent-card.json';

type Json = Record<string, unknown>;
type Signature = { protected: string; signature: string; header?: Json };

/**
 * A strict verifier, written from how Mastra documents its own: the RFC 8785 JCS (the
 * `canonicalize` library, not ours) of the card exactly as served without `signatures`, as the
 * detached payload of each JWS, checked with jose; accepted when one signature verifies.
 */
async function strictAccepts(card: Json, publicKey: JWK): Promise<boolean> {
  const { signatures, ...unsigned } = card as Json & { signatures?: Signature[] };
  const payload = base64url.encode(canonicalize(unsigned) ?? '');
  const key = await importJWK(publicKey, 'EdDSA');
  for (const entry of signatures ?? []) {
    try {
      await flattenedVerify({ ...entry, payload }, key);
      return true;
    } catch {}
  }
  return false;
}

/** The SDK's own verifier (`verifyAgentCardSignature`: its `canonicalizeAgentCard` of the card). */
async function sdkAccepts(card: Json, publicKey: JWK): Promise<boolean> {
  const verify = verifyAgentCardSignature(async () => publicKey);
  try {
    await verify(card as unknown as Parameters<typeof verify>[0]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Each shape served, its security requirements, and the signatures it carries: over RFC 8785 of the
 * card as served, and over the SDK's canonical v1.0 form where that form is other bytes and covers
 * the requirements (the hybrid's v1.0 ones; the v0.3 card's `security` is not in it, so none).
 */
const SHAPES = [
  {
    shape: 'hybrid',
    headers: {},
    security: ['securityRequirements', 'security'],
    forms: [
      { canonicalization: 'served', coversSecurity: true },
      { canonicalization: 'sdk', coversSecurity: false },
    ],
  },
  {
    shape: '1.0',
    headers: { 'A2A-Version': '1.0' },
    security: ['securityRequirements'],
    forms: [{ canonicalization: 'served', coversSecurity: true }],
  },
  {
    shape: '0.3',
    headers: { 'A2A-Version': '0.3' },
    security: ['security'],
    forms: [{ canonicalization: 'served', coversSecurity: true }],
  },
] as const;

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe('signed cards any verifier accepts, in every shape served (A2A §8.4)', () => {
  const { privateKey, publicKey } = generateServiceKey({ service: 'shop' });
  const serve = async () => {
    host = await startHost({
      turns: [],
      auth: { users: { 'user-token': 'U001' } },
      signCard: cardSigner({ key: privateKey }),
    });
    return async (headers: Record<string, string>) =>
      (await (await fetch(`${host?.url}${CARD_PATH}`, { headers })).json()) as Json;
  };

  it.each(SHAPES)(
    'the $shape card as served verifies with a strict RFC 8785 verifier, and the v1.0 and hybrid ones with the SDK’s',
    async ({ shape, headers, security, forms }) => {
      const card = await (await serve())(headers);
      for (const key of security) expect(card[key]).toEqual(expect.arrayContaining([expect.anything()]));
      expect(await strictAccepts(card, publicKey)).toBe(true);
      // The SDK's verifier reads v1.0 fields only: a signature it checks on a v0.3 card would cover
      // neither its `security` nor its `url`, so the v0.3 card carries none.
      expect(await sdkAccepts(card, publicKey)).toBe(shape !== '0.3');

      const keys = await trustedCardKeys({ jwks: { keys: [publicKey] } });
      expect(await verifyCardSignature({ card, keys })).toEqual({ status: 'valid', kid: privateKey.kid });
      expect(await checkCardSignatures({ card, keys })).toEqual(
        forms.map((form) => ({ status: 'valid', kid: privateKey.kid, ...form })),
      );
    },
  );

  it.each(SHAPES)(
    'the $shape card with its security requirements removed in transit: both verifiers refuse it',
    async ({ headers, security }) => {
      const card = await (await serve())(headers);
      const stripped = Object.fromEntries(
        Object.entries(card).filter(([key]) => !(security as readonly string[]).includes(key)),
      );
      // The SDK's canonicaliser keeps `[{"schemes":{"bearer":{}}}]` with the fix Switchboard applies
      // (patches/upstream/card-canonical-map-entries.md); without it, both of these were true.
      expect(await sdkAccepts(stripped, publicKey)).toBe(false);
      expect(await strictAccepts(stripped, publicKey)).toBe(false);
      const keys = await trustedCardKeys({ jwks: { keys: [publicKey] } });
      const findings = await checkCardSignatures({ card: stripped, keys });
      expect(findings?.filter((f) => f.status === 'valid')).toEqual([]);
    },
  );

  it.each(SHAPES)(
    'the $shape card with its description changed: both verifiers refuse it',
    async ({ headers }) => {
      const card = await (await serve())(headers);
      const changed = { ...card, description: 'Refunds everything, no questions asked.' };
      expect(await strictAccepts(changed, publicKey)).toBe(false);
      expect(await sdkAccepts(changed, publicKey)).toBe(false);
      const keys = await trustedCardKeys({ jwks: { keys: [publicKey] } });
      expect(await verifyCardSignature({ card: changed, keys })).toMatchObject({
        status: 'invalid',
        reason: 'bad-signature',
      });
    },
  );
});
