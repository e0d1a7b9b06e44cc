import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentCard, generateAgentCardSignature } from '@a2a-js/sdk';
import type { JWK } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
// Straight from the files, not the barrel: what these tests need does not pass through the checker.
import { renderAgentCard } from '../src/convert/render-card.ts';
import { objects } from '../src/json/card-json.ts';
import { type CardKeys, trustedCardKeys } from '../src/sign/card-keys.ts';
import { cardSigner } from '../src/sign/sign-card.ts';
import { checkCardSignatures, verifyCardSignature } from '../src/sign/verify-card-signature.ts';
import { v1 } from './support/worked-example.ts';

/** An Ed25519 key pair as JWKs, the public half as a trusted set lists it. */
function keyPair(kid: string): { privateKey: JWK; publicKey: JWK } {
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  const privateKey = { kty: 'OKP', crv: 'Ed25519', x: String(jwk.x), d: String(jwk.d), kid, alg: 'EdDSA' };
  const { d: _private, ...publicKey } = privateKey;
  return { privateKey, publicKey: { ...publicKey, use: 'sig' } };
}

const orders = keyPair('orders:2026-05');
const stranger = keyPair('stranger:1');
const card = () => AgentCard.fromJSON(v1);
const trusted = () => trustedCardKeys({ jwks: { keys: [orders.publicKey] } });
const verify = async (json: unknown, keys?: CardKeys) =>
  verifyCardSignature({ card: json, keys: keys ?? (await trusted()) });

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('signed cards (A2A §8.4)', () => {
  it('a card signed with a trusted key verifies in every shape it is served in, each with its own two signatures', async () => {
    const signed = await cardSigner({ key: orders.privateKey })(card());
    // Per shape (v1.0, hybrid, v0.3): RFC 8785 of that shape as served, then the SDK's form where
    // that differs (this card's v1.0 shape has no empty value, so one signature is both there).
    expect(signed.signatures.length).toBeGreaterThanOrEqual(3);
    for (const signature of signed.signatures) {
      const header = JSON.parse(Buffer.from(signature.protected, 'base64url').toString());
      expect(header).toEqual({ alg: 'EdDSA', kid: 'orders:2026-05', typ: 'JOSE' });
    }
    const keys = await trusted();
    for (const version of ['1.0', 'hybrid', '0.3'] as const) {
      const { card: json, warnings } = renderAgentCard({ card: signed, version });
      expect(warnings.filter((warning) => warning.path === '$.signatures')).toEqual([]);
      // Served without the mark saying which shape each signature is for.
      for (const signature of objects(json.signatures))
        expect(Object.keys(signature).sort()).toEqual(['protected', 'signature']);
      expect(await verify(json)).toEqual({ status: 'valid', kid: 'orders:2026-05' });
      const findings = (await checkCardSignatures({ card: json, keys })) ?? [];
      expect(findings[0]).toEqual({
        status: 'valid',
        kid: 'orders:2026-05',
        canonicalization: 'served',
        coversSecurity: true,
      });
      expect(findings.every((finding) => finding.status === 'valid')).toBe(true);
    }
  });

  it('still verifies a v0.3 card against the signatures of signers that signed only the v1.0 card, saying where to look when they do not', async () => {
    const v1Only = await generateAgentCardSignature(orders.privateKey, {
      alg: 'EdDSA',
      kid: 'orders:2026-05',
      typ: 'JOSE',
    })(AgentCard.toJSON(card()) as unknown as AgentCard);
    const v03 = renderAgentCard({ card: AgentCard.fromJSON(v1Only), version: '0.3' });
    expect(await verify(v03.card)).toMatchObject({
      status: 'invalid',
      reason: 'bad-signature',
      message: expect.stringContaining('fetch that one (A2A-Version: 1.0)'),
    });
  });

  it('an unsigned card is unsigned, not invalid: the caller decides', async () => {
    expect(await verify(v1)).toEqual({ status: 'unsigned' });
  });

  it('refuses a card changed after signing', async () => {
    const signed = AgentCard.toJSON(await cardSigner({ key: orders.privateKey })(card())) as Record<
      string,
      unknown
    >;
    const tampered = { ...signed, description: 'Refunds everything, no questions asked.' };
    expect(await verify(tampered)).toEqual({
      status: 'invalid',
      reason: 'bad-signature',
      kid: 'orders:2026-05',
      message: expect.stringMatching(/does not match the card/),
    });
  });

  it('covers the security schemes too: a card whose auth was taken off after signing is refused', async () => {
    const secured = AgentCard.fromJSON({
      ...v1,
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    });
    const signed = AgentCard.toJSON(await cardSigner({ key: orders.privateKey })(secured)) as Record<
      string,
      unknown
    >;
    expect(await verify(signed)).toMatchObject({ status: 'valid' });
    const { securitySchemes: _schemes, securityRequirements: _requirements, ...open } = signed;
    expect(await verify(open)).toMatchObject({ status: 'invalid', reason: 'bad-signature' });
  });

  it('refuses a card signed by a key the user does not trust, and one whose key claims a trusted kid', async () => {
    const byStranger = AgentCard.toJSON(await cardSigner({ key: stranger.privateKey })(card()));
    expect(await verify(byStranger)).toMatchObject({
      status: 'invalid',
      reason: 'untrusted-key',
      kid: 'stranger:1',
    });
    const impostor = { ...stranger.privateKey, kid: 'orders:2026-05' };
    const byImpostor = AgentCard.toJSON(await cardSigner({ key: impostor })(card()));
    expect(await verify(byImpostor)).toMatchObject({ status: 'invalid', reason: 'bad-signature' });
  });

  it('never trusts a key the signature carries (jwk) or points to (jku)', async () => {
    // The stranger serves its own key set, and names it and embeds its key in the signature.
    const server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [stranger.publicKey] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const jku = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    for (const kid of ['stranger:1', 'orders:2026-05']) {
      const { d: _d, ...jwk } = { ...stranger.privateKey, kid };
      for (const inProtected of [true, false]) {
        const pointers = { jku, jwk };
        const sign = generateAgentCardSignature(
          { ...stranger.privateKey, kid },
          { alg: 'EdDSA', typ: 'JOSE', kid, ...(inProtected ? pointers : {}) },
          inProtected ? undefined : pointers,
        );
        const result = await verify(AgentCard.toJSON(await sign(card())));
        expect(result).toMatchObject({
          status: 'invalid',
          reason: kid === 'stranger:1' ? 'untrusted-key' : 'bad-signature',
        });
      }
    }
  });

  it('reads the trusted keys from a JWKS file or a URL, and refuses a set with a private key', async () => {
    const signed = AgentCard.toJSON(await cardSigner({ key: orders.privateKey })(card()));
    const dir = mkdtempSync(join(tmpdir(), 'card-keys-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'trusted-keys.json');
    writeFileSync(file, JSON.stringify({ keys: [stranger.publicKey, orders.publicKey] }));
    expect(await verify(signed, await trustedCardKeys({ file }))).toEqual({
      status: 'valid',
      kid: 'orders:2026-05',
    });

    const server = createServer((_req, res) => res.end(JSON.stringify({ keys: [orders.publicKey] })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    expect(await verify(signed, await trustedCardKeys({ url }))).toEqual({
      status: 'valid',
      kid: 'orders:2026-05',
    });

    // A key set that cannot be fetched decides nothing about the card, and says so.
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(await verify(signed, await trustedCardKeys({ url: `${url}?again` }))).toMatchObject({
      status: 'invalid',
      reason: 'keys-unavailable',
    });

    writeFileSync(file, JSON.stringify({ keys: [orders.privateKey] }));
    await expect(trustedCardKeys({ file })).rejects.toThrow(/JWKS of public keys/);
    await expect(trustedCardKeys({ file: join(dir, 'missing.json') })).rejects.toThrow(/cannot be read/);
  });

  it('calls a signature without kid, alg or typ malformed, and refuses a signer key without a kid', async () => {
    const sign = generateAgentCardSignature(orders.privateKey, { alg: 'EdDSA', typ: 'JOSE' });
    expect(await verify(AgentCard.toJSON(await sign(card())))).toMatchObject({
      status: 'invalid',
      reason: 'malformed',
    });
    expect(await verify({ ...v1, signatures: [{ protected: '!!', signature: 'x' }] })).toMatchObject({
      status: 'invalid',
      reason: 'malformed',
    });
    const { kid: _kid, ...anonymous } = orders.privateKey;
    expect(() => cardSigner({ key: anonymous })).toThrow(/must have a kid/);
    expect(() => cardSigner({ key: orders.publicKey })).toThrow(/private JWK/);
  });
});
