import { AgentCard } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { checkCard, detectCardVersion, renderAgentCard } from '../src/index.ts';
import { v1 } from './support/worked-example.ts';

describe('renderAgentCard', () => {
  const card = AgentCard.fromJSON(v1);

  it('renders the hybrid: the v1.0 card with what a v0.3 reader needs added, valid as both', () => {
    const { card: hybrid, warnings } = renderAgentCard({ card, version: 'hybrid' });
    expect(hybrid).toEqual({
      ...(AgentCard.toJSON(card) as object),
      protocolVersion: '0.3.0',
      url: 'https://a.example/a2a/jsonrpc',
      preferredTransport: 'JSONRPC',
      additionalInterfaces: [
        { url: 'https://a.example/a2a/jsonrpc', transport: 'JSONRPC' },
        { url: 'https://a.example/a2a/rest', transport: 'HTTP+JSON' },
      ],
    });
    expect(warnings).toEqual([]);
    expect(detectCardVersion(hybrid)).toBe('hybrid');
    expect(checkCard(hybrid).valid).toBe(true);
  });

  it('renders a card no v0.3 client could use as the v1.0 card, where 0.3 refuses it', () => {
    const queueOnly = AgentCard.fromJSON({
      ...v1,
      supportedInterfaces: [
        {
          url: 'bullmq://queue/echo',
          protocolBinding: 'urn:switchboard:a2a:binding:bullmq:v1',
          protocolVersion: '1.0',
        },
      ],
    });
    expect(renderAgentCard({ card: queueOnly, version: 'hybrid' })).toEqual(
      renderAgentCard({ card: queueOnly, version: '1.0' }),
    );
    expect(() => renderAgentCard({ card: queueOnly, version: '0.3' })).toThrow(
      /no interface a v0\.3 client can use/,
    );
  });
});
