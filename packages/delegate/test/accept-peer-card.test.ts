import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AgentCard, generateAgentCardSignature } from '@a2a-js/sdk';
import { MemoryLogger } from '@switchboard/agent/testing';
import { cardSigner, trustedCardKeys } from '@switchboard/cards';
import { generateServiceKey } from '@switchboard/identity';
import { describe, expect, it } from 'vitest';
import { acceptPeerCards, acceptSignedPeerCards } from '../src/index.ts';

// The real-world cards are the cards toolkit's fixtures.
const realWorld = new URL('../../cards/test/fixtures/cards/real-world/', import.meta.url);
const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(fileURLToPath(new URL(name, realWorld)), 'utf8'));

const v03 = {
  protocolVersion: '0.3.0',
  name: 'Inventory',
  description: 'Stock levels',
  url: 'https://inventory.example/a2a/jsonrpc',
  preferredTransport: 'JSONRPC',
  version: '1.0.0',
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'check_stock', name: 'Check stock', description: 'How many are left', tags: ['stock'] }],
};

describe('accepting peer cards', () => {
  it('takes cards of either version, refuses a bad one with one log line, and keeps the rest', () => {
    const logger = new MemoryLogger();
    const { url: _url, ...noUrl } = v03;
    const peers = acceptPeerCards({
      cards: [
        { json: v03, source: 'registry:inventory' },
        { json: { ...noUrl, name: 'Comms' }, source: 'registry:comms' },
        { json: 'not a card', source: 'registry:junk' },
        { json: fixture('adk_skills_agent__src__skills_agent__agent_card.json'), source: 'samples:skills' },
      ],
      logger,
    });
    expect(peers.map((peer) => [peer.source, peer.accepted])).toEqual([
      ['registry:inventory', true],
      ['registry:comms', false],
      ['registry:junk', false],
      ['samples:skills', true],
    ]);
    const inventory = peers[0];
    expect(inventory?.accepted && inventory.card.supportedInterfaces).toEqual([
      {
        url: 'https://inventory.example/a2a/jsonrpc',
        protocolBinding: 'JSONRPC',
        protocolVersion: '0.3',
        tenant: '',
      },
    ]);
    expect(logger.entries.map((entry) => entry.message)).toEqual([
      'refusing the card of agent "Comms": $.url is required',
      expect.stringMatching(/^refusing the card of agent "registry:junk": /),
    ]);
  });
});

describe('accepting signed peer cards', () => {
  const trusted = generateServiceKey({ service: 'inventory' });
  const stranger = generateServiceKey({ service: 'inventory', label: 'forged' });
  const v1 = AgentCard.fromJSON(
    fixture('adk_skills_agent__src__skills_agent__agent_card.json') as Record<string, unknown>,
  );

  it('accepts a card signed by a trusted key, saying which; refuses one that carries its own key', async () => {
    const keys = await trustedCardKeys({ jwks: { keys: [trusted.publicKey] } });
    const signed = AgentCard.toJSON(await cardSigner({ key: trusted.privateKey })(v1));
    // Signed by a stranger's key, which the signature itself carries (jwk) and points to (jku).
    const { d: _d, ...strangerPublic } = stranger.privateKey;
    const forged = AgentCard.toJSON(
      await generateAgentCardSignature(stranger.privateKey, {
        alg: 'EdDSA',
        typ: 'JOSE',
        kid: stranger.privateKey.kid,
        jwk: strangerPublic,
        jku: 'https://forger.example/jwks.json',
      })(v1),
    );
    const logger = new MemoryLogger();
    const peers = await acceptSignedPeerCards({
      cards: [
        { json: signed, source: 'registry:signed' },
        { json: forged, source: 'registry:forged' },
      ],
      signatures: { keys, policy: 'signed' },
      logger,
    });
    expect(peers.map((peer) => [peer.source, peer.accepted])).toEqual([
      ['registry:signed', true],
      ['registry:forged', false],
    ]);
    expect(peers[0]).toMatchObject({ signedBy: trusted.privateKey.kid });
    expect(logger.entries.map((entry) => entry.message)).toEqual([
      expect.stringMatching(
        /^refusing the card of agent ".+": its signature is not valid: no trusted key has the kid "inventory:forged"$/,
      ),
    ]);
  });
});
