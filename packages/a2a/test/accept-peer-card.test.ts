import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MemoryLogger } from '@switchboard/agent/testing';
import { describe, expect, it } from 'vitest';
import { acceptPeerCards } from '../src/delegate/index.ts';

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
