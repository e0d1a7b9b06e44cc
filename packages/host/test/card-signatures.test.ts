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

const SHAPES = [
  { shape: 'hybrid', headers: {}, security: ['securityRequirements', 'security'] },
  { shape: '1.0', headers: { 'A2A-Version': '1.0' }, security: ['securityRequirements'] },
  { shape: '0.3', headers: { 'A2A-Version': '0.3' }, security: ['security'] },
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
      auth: { customers: { 'customer-token': 'C001' } },
      signCard: cardSigner({ key: privateKey }),
    });
    return async (headers: Record<string, string>) =>
      (await (await fetch(`${host?.url}${CARD_PATH}`, { headers })).json()) as Json;
  };

  it.each(SHAPES)(
    'the $shape card as served verifies with a strict RFC 8785 verifier and with the SDK’s, covering its security requirements',
    async ({ headers, security }) => {
      const card = await (await serve())(headers);
      for (const key of security) expect(card[key]).toEqual(expect.arrayContaining([expect.anything()]));
      expect(await strictAccepts(card, publicKey)).toBe(true);
      expect(await sdkAccepts(card, publicKey)).toBe(true);

      const keys = await trustedCardKeys({ jwks: { keys: [publicKey] } });
      expect(await verifyCardSignature({ card, keys })).toEqual({ status: 'valid', kid: privateKey.kid });
      expect(await checkCardSignatures({ card, keys })).toEqual([
        { status: 'valid', kid: privateKey.kid, canonicalization: 'served', coversSecurity: true },
        { status: 'valid', kid: privateKey.kid, canonicalization: 'sdk', coversSecurity: false },
      ]);
    },
  );

  it.each(SHAPES)(
    'the $shape card with its security requirements removed in transit: the strict verifier refuses the hybrid and v0.3 ones; the SDK’s cannot tell (upstream bug)',
    async ({ shape, headers, security }) => {
      const card = await (await serve())(headers);
      const stripped = Object.fromEntries(
        Object.entries(card).filter(([key]) => !(security as readonly string[]).includes(key)),
      );
      // The SDK's canonical form drops `[{"schemes":{"bearer":{}}}]` as empty (docs/conformance.md):
      // its verifier cannot tell them removed, and the v1.0 card without them is, byte for byte under
      // RFC 8785, what the SDK-form signature signs, so a strict verifier accepts that one too. When
      // the SDK keeps them, both expectations below turn false and this test fails: update it then.
      expect(await sdkAccepts(stripped, publicKey)).toBe(true);
      expect(await strictAccepts(stripped, publicKey)).toBe(shape === '1.0');
      const keys = await trustedCardKeys({ jwks: { keys: [publicKey] } });
      const findings = await checkCardSignatures({ card: stripped, keys });
      expect(findings?.filter((f) => f.status === 'valid')).toEqual([
        expect.objectContaining({ canonicalization: shape === '1.0' ? 'served' : 'sdk' }),
      ]);
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
