/** Hints for v0.3 field names found in a card checked as v1.0, keyed by field name. */
export const V1_RENAMES: Readonly<Record<string, string>> = {
  protocolVersion:
    'v1.0 states the protocol version per interface: supportedInterfaces[].protocolVersion, e.g. "1.0".',
  url: 'v1.0 lists endpoints in supportedInterfaces[].url.',
  preferredTransport:
    'v1.0 has no preferredTransport: the first supportedInterfaces entry is preferred, its protocolBinding names the transport.',
  additionalInterfaces: 'v1.0 lists every interface in supportedInterfaces.',
  supportsAuthenticatedExtendedCard: 'v1.0 moved it to capabilities.extendedAgentCard.',
  security: 'v1.0 calls it securityRequirements, written [{"schemes": {"<scheme>": {"list": ["<scope>"]}}}].',
  stateTransitionHistory: 'v1.0 removed this capability; delete it.',
  transport: 'v1.0 calls it protocolBinding.',
  type: 'v1.0 writes a security scheme as {"<variant>SecurityScheme": {...}}, e.g. {"httpAuthSecurityScheme": {"scheme": "Bearer"}}.',
  in: 'v1.0 calls it location (inside apiKeySecurityScheme).',
};

/** Hints for the top-level fields most often missing, by version. */
export const REQUIRED_HINTS: Readonly<Record<'0.3' | '1.0', Readonly<Record<string, string>>>> = {
  '0.3': {
    protocolVersion: 'Add "protocolVersion": "0.3.0", the A2A protocol version this card speaks.',
    url: 'Add "url": the endpoint of the preferred transport, e.g. "https://agent.example/a2a/jsonrpc" (with "preferredTransport" when it is not JSONRPC).',
  },
  '1.0': {
    supportedInterfaces:
      'Add "supportedInterfaces": [{"url": "https://agent.example/a2a/jsonrpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}], the preferred interface first.',
  },
};

/** Hints for v1.0 fields found in a card read as v0.3, keyed by field name. */
export const V03_OTHER_VERSION: Readonly<Record<string, string>> = {
  supportedInterfaces:
    'v0.3 readers ignore it: v0.3 names the main endpoint in url (with preferredTransport) and the others in additionalInterfaces.',
  securityRequirements:
    'v0.3 readers ignore it: v0.3 calls it security, written [{"<scheme>": ["<scope>"]}].',
  extendedAgentCard:
    'v0.3 readers ignore it: v0.3 says supportsAuthenticatedExtendedCard at the top level of the card.',
};

/** Hints for a security scheme of a hybrid card that has only one version's form. */
export const HYBRID_SCHEME_HINTS: Readonly<Record<'1.0' | '0.3', string>> = {
  '1.0':
    'v1.0 readers need the v1.0 form of this scheme: add it beside the v0.3 fields, e.g. "httpAuthSecurityScheme": {"scheme": "Bearer"} (v0.3 readers ignore it).',
  '0.3':
    'v0.3 readers need the v0.3 form of this scheme: add "type" and its fields beside the v1.0 form, e.g. "type": "http", "scheme": "Bearer" (v1.0 readers of a hybrid card ignore them).',
};
