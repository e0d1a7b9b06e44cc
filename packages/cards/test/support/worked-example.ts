import type { JsonObject } from '../../src/index.ts';

/** The worked example of one agent in both shapes (A2A v0.3.0 and v1.0). */
export const v03: JsonObject = {
  protocolVersion: '0.3.0',
  name: 'Echo',
  description: 'Echoes',
  url: 'https://a.example/a2a/jsonrpc',
  preferredTransport: 'JSONRPC',
  additionalInterfaces: [
    { url: 'https://a.example/a2a/jsonrpc', transport: 'JSONRPC' },
    { url: 'https://a.example/a2a/rest', transport: 'HTTP+JSON' },
  ],
  version: '1.2.0',
  capabilities: { streaming: true, pushNotifications: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'Echo', description: 'Echo back', tags: ['echo'] }],
  supportsAuthenticatedExtendedCard: false,
};

export const v1: JsonObject = {
  name: 'Echo',
  description: 'Echoes',
  supportedInterfaces: [
    { url: 'https://a.example/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    { url: 'https://a.example/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
  ],
  version: '1.2.0',
  capabilities: { streaming: true, pushNotifications: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'Echo', description: 'Echo back', tags: ['echo'] }],
};
