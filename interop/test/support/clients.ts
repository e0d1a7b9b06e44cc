/** What a peer client is asked to do against the supervisor: the columns of the interop table. */
export const OPERATIONS = [
  'card',
  'send',
  'stream',
  'get',
  'cancel',
  'resubscribe',
  'follow-up',
  'list',
  'auth',
] as const;
export type Operation = (typeof OPERATIONS)[number];

/** One peer framework's client, as a row of the interop table. */
export interface PeerClient {
  /** How its tests name it (`peerTest`). */
  id: string;
  /** The row's label: the client's API, as its users know it. */
  label: string;
  /** The folder under `interop/node_modules` whose package.json gives the version. */
  packageDir: string;
  /** Operations this client does not offer its users, each with what it offers instead. */
  notOffered: Partial<Record<Operation, string>>;
}

/** Every peer client the package runs, in the table's order. */
export const PEER_CLIENTS: readonly PeerClient[] = [
  {
    id: 'sdk-1.3',
    label: '`@a2a-js/sdk` `Client` (A2A 1.0)',
    packageDir: '@a2a-js/sdk',
    notOffered: {},
  },
  {
    id: 'sdk-0.3',
    label: '`@a2a-js/sdk` `Client` (A2A 0.3)',
    packageDir: 'a2a-sdk-03',
    notOffered: { list: 'A2A 0.3 has no tasks/list' },
  },
  {
    id: 'sdk-0.2',
    label: '`@a2a-js/sdk` `A2AClient` (A2A 0.2)',
    packageDir: 'a2a-sdk-02',
    notOffered: { list: 'A2A 0.2 has no tasks/list' },
  },
  {
    id: 'adk',
    label: 'Google ADK `RemoteA2AAgent`',
    packageDir: '@google/adk',
    notOffered: {
      get: 'runs a turn; no task API',
      cancel: 'runs a turn; no task API',
      resubscribe: 'runs a turn; no task API',
      list: 'runs a turn; no task API',
    },
  },
  {
    id: 'adk-sub-agent',
    label: 'Google ADK `LlmAgent` → `RemoteA2AAgent` sub-agent',
    packageDir: '@google/adk',
    notOffered: {
      card: 'the sub-agent reads it',
      stream: 'the runner streams what the sub-agent yields (send)',
      get: 'runs a turn; no task API',
      cancel: 'runs a turn; no task API',
      resubscribe: 'runs a turn; no task API',
      list: 'runs a turn; no task API',
    },
  },
  {
    id: 'mastra-0.3',
    label: 'Mastra `A2AAgent` (`protocolVersion: 0.3`)',
    packageDir: '@mastra/core',
    notOffered: {
      get: 'polls tasks/get itself until a task ends',
      cancel: 'an abort signal stops the request only',
      resubscribe: 'only to resume its own suspended stream',
      'follow-up': 'no context id option; a new task per call',
      list: 'no task API',
    },
  },
  {
    id: 'mastra-1.0',
    label: 'Mastra `A2AAgent` (`protocolVersion: 1.0`)',
    packageDir: '@mastra/core',
    notOffered: {
      get: 'polls GetTask itself until a task ends',
      cancel: 'an abort signal stops the request only',
      resubscribe: 'only to resume its own suspended stream',
      'follow-up': 'no context id option; a new task per call',
      list: 'no task API',
    },
  },
  {
    id: 'mastra-parent',
    label: 'Mastra `Agent` delegating to an `A2AAgent`',
    packageDir: '@mastra/core',
    notOffered: {
      card: 'the A2AAgent reads it',
      stream: 'see `A2AAgent`',
      get: 'no task API',
      cancel: 'no task API',
      resubscribe: 'no task API',
      'follow-up': 'no context id option',
      list: 'no task API',
    },
  },
  {
    id: 'mastra-client',
    label: 'Mastra client-js `getA2A` (A2A 0.3)',
    packageDir: '@mastra/client-js',
    notOffered: { list: 'A2A 0.3 has no tasks/list' },
  },
  {
    id: 'mastra-client-v1',
    label: 'Mastra client-js `getA2AV1` (A2A 1.0)',
    packageDir: '@mastra/client-js',
    notOffered: {},
  },
  {
    id: 'ai-provider',
    label: '`a2a-ai-provider` with AI SDK `generateText` / `streamText`',
    packageDir: 'a2a-ai-provider',
    notOffered: {
      get: 'a model; no task API',
      cancel: 'a model; no task API',
      resubscribe: 'a model; no task API',
      list: 'a model; no task API',
    },
  },
];

/** A client by id; throws on a typo, so a test cannot fill a row that does not exist. */
export function peerClient(id: string): PeerClient {
  const client = PEER_CLIENTS.find((candidate) => candidate.id === id);
  if (!client) throw new Error(`no peer client "${id}" in PEER_CLIENTS (interop/test/support/clients.ts)`);
  return client;
}
