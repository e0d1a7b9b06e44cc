import { AgentCard, TaskState } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { isLegacyAgentCard } from '@a2a-js/sdk/compat/v0_3/client';
import { BULLMQ_BINDING, defaultQueueAddress, queueUrl } from '@switchboard/a2a-bullmq';
import { defineAgent, defineTool } from '@switchboard/agent';
import { MemoryLogger, ScriptedModel } from '@switchboard/agent/testing';
import {
  cardSigner,
  checkCard,
  detectCardVersion,
  renderAgentCard,
  trustedCardKeys,
  verifyCardSignature,
} from '@switchboard/cards';
import { delegationTools } from '@switchboard/delegate';
import { generateServiceKey } from '@switchboard/identity';
import { PERMISSIONS_EXTENSION_URI, PermissionManifest } from '@switchboard/protocol';
import { A2AClient as Sdk02Client } from 'a2a-sdk-02/client';
import * as Sdk03 from 'a2a-sdk-03/client';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { a2aHttpInterfaces, agentCardRoute, createA2aHttpApp, startA2aHttpServer } from '../src/http.ts';
import { buildAgentCard, createAgentHandler } from '../src/index.ts';
import { type Host, partsText, sendTask, startHost } from './support/http-host.ts';
import { refundTool } from './support/refund-tool.ts';

const CARD_PATH = '/.well-known/agent-card.json';
const lookupTurns = [
  { toolCalls: [{ name: 'get_order', arguments: { orderId: 'A10086' } }] },
  { text: 'Order A10086 has shipped with DHL.' },
];

let host: Host | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await host?.close();
  host = undefined;
  for (const close of closers.splice(0)) await close();
});

/** A fetch that records what went over the wire: each request's A2A-Version, body and reply. */
function recordingFetch({ dropVersionOnCard = false } = {}) {
  const wire: { url: string; version: string | null; body: unknown; reply: string }[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const headers = new Headers(init?.headers);
    // A v0.3 reader does not know the A2A-Version header; the SDK's resolver always sends 1.0.
    if (dropVersionOnCard && url.endsWith(CARD_PATH)) headers.delete('A2A-Version');
    const response = await fetch(input, { ...init, headers });
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    wire.push({ url, version: headers.get('A2A-Version'), body, reply: await response.clone().text() });
    return response;
  };
  return { fetchImpl, wire };
}

describe('one agent, a v0.3 client and a v1.0 client over HTTP', () => {
  describe.each([
    ['JSONRPC', '/a2a/jsonrpc'],
    ['HTTP+JSON', '/a2a/rest'],
  ] as const)('%s binding', (binding, path) => {
    const transports = (fetchImpl: typeof fetch) => [
      binding === 'JSONRPC'
        ? new JsonRpcTransportFactory({ fetchImpl })
        : new RestTransportFactory({ fetchImpl }),
    ];

    it('a v0.3 client (@a2a-js/sdk 0.3.x) reads the header-less card and completes a task in the v0.3 wire format', async () => {
      host = await startHost({ turns: lookupTurns });
      const { fetchImpl, wire } = recordingFetch();
      const factory = new Sdk03.ClientFactory({
        transports: [
          binding === 'JSONRPC'
            ? new Sdk03.JsonRpcTransportFactory({ fetchImpl })
            : new Sdk03.RestTransportFactory({ fetchImpl }),
        ],
        preferredTransports: [binding],
        cardResolver: new Sdk03.DefaultAgentCardResolver({ fetchImpl }),
      });
      const client = await factory.createFromUrl(host.url);

      const result = await client.sendMessage({
        message: {
          kind: 'message',
          messageId: 'm-03',
          role: 'user',
          parts: [{ kind: 'text', text: 'Where is order A10086?' }],
        },
      });
      expect(result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
      const artifacts = result.kind === 'task' ? (result.artifacts ?? []) : [];
      expect(artifacts.flatMap((artifact) => artifact.parts)).toMatchObject([
        { kind: 'text', text: 'Order A10086 has shipped with DHL.' },
      ]);

      const [card, call] = wire;
      expect(card?.version).toBeNull();
      const hybrid = JSON.parse(card?.reply ?? '{}');
      expect(detectCardVersion(hybrid)).toBe('hybrid');
      expect(checkCard(hybrid)).toMatchObject({ valid: true });
      expect(call?.url).toBe(
        binding === 'JSONRPC' ? `${host.url}${path}` : `${host.url}${path}/v1/message:send`,
      );
      expect(call?.version).toBeNull();
      if (binding === 'JSONRPC') {
        expect(call?.body).toMatchObject({
          method: 'message/send',
          params: { message: { kind: 'message' } },
        });
      }
    });

    it('a v1.0 client that sends no A2A-Version reads the header-less card and completes a task in v1.0', async () => {
      host = await startHost({ turns: lookupTurns });
      const { fetchImpl, wire } = recordingFetch({ dropVersionOnCard: true });
      const factory = new ClientFactory({
        transports: transports(fetchImpl),
        cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      });
      const client = await factory.createFromUrl(host.url);

      const task = await sendTask(client, 'Where is order A10086?');
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      const [card, call] = wire;
      expect(card?.version).toBeNull();
      expect(isLegacyAgentCard(JSON.parse(card?.reply ?? '{}'))).toBe(false);
      expect(call?.url).toBe(
        binding === 'JSONRPC' ? `${host.url}${path}` : `${host.url}${path}/message:send`,
      );
      expect(call?.version).toBe('1.0');
      expect(call?.reply).toContain('TASK_STATE_COMPLETED');
    });

    it('a v1.0 client reads the v1.0 card and completes a task in the v1.0 wire format', async () => {
      host = await startHost({ turns: lookupTurns });
      const { fetchImpl, wire } = recordingFetch();
      const factory = new ClientFactory({
        transports: transports(fetchImpl),
        cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      });
      const client = await factory.createFromUrl(host.url);

      const task = await sendTask(client, 'Where is order A10086?');
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(task.artifacts.map((artifact) => partsText(artifact.parts))).toEqual([
        'Order A10086 has shipped with DHL.',
      ]);

      const [card, call] = wire;
      expect(card?.version).toBe('1.0');
      expect(JSON.parse(card?.reply ?? '{}')).toEqual(AgentCard.toJSON(host.card));
      expect(call?.url).toBe(
        binding === 'JSONRPC' ? `${host.url}${path}` : `${host.url}${path}/message:send`,
      );
      expect(call?.version).toBe('1.0');
      if (binding === 'JSONRPC') expect(call?.body).toMatchObject({ method: 'SendMessage' });
      expect(call?.reply).toContain('TASK_STATE_COMPLETED');
    });
  });
});

describe('the well-known card, by A2A-Version', () => {
  const tokens = { customers: { 'customer-token': 'C001' } };
  const getCard = (headers: Record<string, string> = {}, query = '') =>
    fetch(`${host?.url}${CARD_PATH}${query}`, { headers });

  it('serves the hybrid card without a version, the v0.3 card for 0.3, and the v1.0 ProtoJSON card for 1.0', async () => {
    host = await startHost({ turns: [], auth: tokens });
    const three = await getCard({ 'A2A-Version': '0.3' });
    expect(three.status).toBe(200);
    expect(three.headers.get('content-type')).toMatch(/^application\/json/);
    expect(three.headers.get('cache-control')).toBe('public, max-age=60');
    expect(three.headers.get('vary')).toMatch(/\bA2A-Version\b/i);
    const v03 = (await three.json()) as Record<string, unknown>;
    const v03Fields = {
      protocolVersion: '0.3.0',
      url: `${host.url}/a2a/jsonrpc`,
      preferredTransport: 'JSONRPC',
      additionalInterfaces: [
        { url: `${host.url}/a2a/jsonrpc`, transport: 'JSONRPC' },
        { url: `${host.url}/a2a/rest`, transport: 'HTTP+JSON' },
      ],
      security: [{ bearer: [] }],
    };
    expect(v03).toMatchObject({
      ...v03Fields,
      name: 'shop',
      securitySchemes: { bearer: { type: 'http', scheme: 'Bearer', description: 'Bearer token' } },
      supportsAuthenticatedExtendedCard: false,
    });
    expect(v03).not.toHaveProperty('supportedInterfaces');
    expect(v03).not.toHaveProperty('securityRequirements');
    expect(v03).toEqual(renderAgentCard({ card: host.card, version: '0.3' }).card);
    expect(checkCard(v03)).toMatchObject({ version: '0.3', valid: true });
    const same = await getCard({ 'A2A-Version': '0.3.0' });
    expect(await same.json()).toEqual(v03);
    expect(same.headers.get('etag')).toBe(three.headers.get('etag'));

    const none = await getCard();
    expect(none.status).toBe(200);
    expect(none.headers.get('cache-control')).toBe('public, max-age=60');
    expect(none.headers.get('vary')).toMatch(/\bA2A-Version\b/i);
    const hybrid = (await none.json()) as Record<string, unknown>;
    // Each scheme in both forms, so a v0.3 reader that validates schemes finds its own.
    const bothForms = {
      bearer: {
        httpAuthSecurityScheme: { description: 'Bearer token', scheme: 'Bearer' },
        type: 'http',
        scheme: 'Bearer',
        description: 'Bearer token',
      },
    };
    expect(hybrid).toEqual({
      ...(AgentCard.toJSON(host.card) as object),
      ...v03Fields,
      securitySchemes: bothForms,
    });
    expect(detectCardVersion(hybrid)).toBe('hybrid');
    expect(checkCard(hybrid)).toMatchObject({ valid: true, problems: [] });
    const empty = await getCard({ 'A2A-Version': '' });
    expect(await empty.json()).toEqual(hybrid);
    expect(empty.headers.get('etag')).toBe(none.headers.get('etag'));
    expect(none.headers.get('etag')).not.toBe(three.headers.get('etag'));

    const one = await getCard({ 'A2A-Version': '1.0' });
    expect(one.status).toBe(200);
    expect(one.headers.get('vary')).toMatch(/\bA2A-Version\b/i);
    expect(one.headers.get('cache-control')).toBe('public, max-age=60');
    const v1 = (await one.json()) as Record<string, unknown>;
    expect(v1).toEqual(AgentCard.toJSON(host.card));
    expect(checkCard(v1)).toMatchObject({ version: '1.0', valid: true });
    expect(v1).not.toHaveProperty('url');
    expect(v1).not.toHaveProperty('protocolVersion');
    expect(v1.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: { description: 'Bearer token', scheme: 'Bearer' } },
    });
    expect(v1.supportedInterfaces).toEqual([
      { url: `${host.url}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${host.url}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: `${host.url}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url: `${host.url}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
    ]);
    expect(one.headers.get('etag')).not.toBe(none.headers.get('etag'));
    expect(one.headers.get('etag')).not.toBe(three.headers.get('etag'));

    const byQuery = await getCard({}, '?A2A-Version=1.0');
    expect(await byQuery.json()).toEqual(v1);
    const patch = await getCard({ 'A2A-Version': '1.0.3' });
    expect(patch.headers.get('etag')).toBe(one.headers.get('etag'));
  });

  it('answers If-None-Match with 304 only for the ETag of the shape asked for', async () => {
    host = await startHost({ turns: [] });
    const noneEtag = (await getCard()).headers.get('etag') ?? '';
    const v1Etag = (await getCard({ 'A2A-Version': '1.0' })).headers.get('etag') ?? '';
    expect(noneEtag).toMatch(/^".+"$/);
    expect(v1Etag).toMatch(/^".+"$/);

    const noneAgain = await getCard({ 'If-None-Match': noneEtag });
    expect(noneAgain.status).toBe(304);
    expect(noneAgain.headers.get('etag')).toBe(noneEtag);
    expect(noneAgain.headers.get('vary')).toMatch(/\bA2A-Version\b/i);
    expect(await noneAgain.text()).toBe('');
    const v1Again = await getCard({ 'A2A-Version': '1.0', 'If-None-Match': v1Etag });
    expect(v1Again.status).toBe(304);
    expect(v1Again.headers.get('etag')).toBe(v1Etag);

    const crossed = await getCard({ 'A2A-Version': '1.0', 'If-None-Match': noneEtag });
    expect(crossed.status).toBe(200);
    expect(crossed.headers.get('etag')).toBe(v1Etag);
    expect((await getCard({ 'If-None-Match': v1Etag })).status).toBe(200);
  });

  it.each([
    ['1.0', (card: AgentCard) => AgentCard.toJSON(card)],
    ['0.3', (card: AgentCard) => renderAgentCard({ card, version: '0.3' }).card],
  ] as const)('serves the pure %s card without a version when told to', async (unversionedCard, expected) => {
    host = await startHost({ turns: [], unversionedCard });
    const none = await getCard();
    expect(await none.json()).toEqual(expected(host.card));
    const named = await getCard({ 'A2A-Version': unversionedCard });
    expect(none.headers.get('etag')).toBe(named.headers.get('etag'));
    const refused = await getCard({ 'A2A-Version': '2.0' });
    expect(await refused.json()).toMatchObject({
      error: { message: expect.stringContaining(`or none for the ${unversionedCard} card`) },
    });
  });

  it('serves a signed card in every shape, each verifying, and the ETag follows the signature', async () => {
    const { privateKey, publicKey } = generateServiceKey({ service: 'shop' });
    const keys = await trustedCardKeys({ jwks: { keys: [publicKey] } });
    host = await startHost({ turns: [], signCard: cardSigner({ key: privateKey }) });
    const byVersion: Record<string, string>[] = [{}, { 'A2A-Version': '1.0' }, { 'A2A-Version': '0.3' }];
    const [none, one, three] = (await Promise.all(
      byVersion.map(async (headers) => (await getCard(headers)).json()),
    )) as { signatures?: unknown }[];
    // Each shape carries its own signatures, over that shape as served (card-signatures.test.ts).
    for (const card of [none, one, three])
      expect(card?.signatures).toEqual(expect.arrayContaining([expect.anything()]));
    expect(new Set([none, one, three].map((card) => JSON.stringify(card?.signatures))).size).toBe(3);
    for (const card of [none, one, three]) {
      expect(await verifyCardSignature({ card, keys })).toEqual({ status: 'valid', kid: privateKey.kid });
    }

    // The same card signed by another key is served with other ETags.
    const other = generateServiceKey({ service: 'shop', label: 'next' }).privateKey;
    const unsigned = AgentCard.fromJSON({ ...(AgentCard.toJSON(host.card) as object), signatures: [] });
    const etags = async (card: AgentCard) => {
      const app = express().get(CARD_PATH, agentCardRoute({ card }));
      const server = await startA2aHttpServer({ app });
      closers.push(() => server.close());
      return Promise.all(
        [{}, { 'A2A-Version': '1.0' }, { 'A2A-Version': '0.3' }].map(
          async (headers) =>
            (await fetch(`${server.url}${CARD_PATH}`, { headers })).headers.get('etag') ?? '',
        ),
      );
    };
    const [first, second] = await Promise.all([
      etags(await cardSigner({ key: privateKey })(unsigned)),
      etags(await cardSigner({ key: other })(unsigned)),
    ]);
    for (const [index, etag] of first.entries()) expect(etag).not.toBe(second[index]);
  });

  it('refuses an unsupported version with 400, naming the versions it serves', async () => {
    host = await startHost({ turns: [] });
    for (const [headers, query] of [
      [{ 'A2A-Version': '9.9' }, ''],
      [{}, '?A2A-Version=latest'],
    ] as const) {
      const response = await getCard(headers, query);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('vary')).toMatch(/\bA2A-Version\b/i);
      const body = await response.json();
      expect(body).toMatchObject({
        error: {
          code: 400,
          status: 'FAILED_PRECONDITION',
          message: expect.stringMatching(
            /A2A-Version "(9\.9|latest)" is not supported.*Supported versions: 1\.0, 0\.3/,
          ),
          details: [
            {
              reason: 'VERSION_NOT_SUPPORTED',
              domain: 'a2a-protocol.org',
              metadata: { supportedVersions: '1.0,0.3' },
            },
          ],
        },
      });
    }
  });

  it('with legacyCompat off, serves the v1.0 card to every reader and refuses 0.3 (card and calls)', async () => {
    const agent = defineAgent({ name: 'plain', instructions: 'Say hello.' });
    const model = new ScriptedModel({ turns: [{ text: 'Hello.' }] });
    const shell = express();
    const server = await startA2aHttpServer({ app: shell });
    closers.push(() => server.close());
    const card = buildAgentCard({
      agent,
      interfaces: a2aHttpInterfaces({ baseUrl: server.url }),
      legacyCompat: false,
    });
    const { requestHandler } = createAgentHandler({ agent, model, card });
    const logger = new MemoryLogger();
    shell.use(createA2aHttpApp({ requestHandler, card, legacyCompat: false, logger }));
    expect(logger.entries).toEqual([]);
    createA2aHttpApp({ requestHandler, card, logger });
    expect(logger.entries.map((entry) => [entry.level, entry.fields.binding, entry.message])).toEqual([
      ['warn', 'JSONRPC', expect.stringMatching(/no protocol 0\.3 interface.*VersionNotSupported/)],
      ['warn', 'HTTP+JSON', expect.stringMatching(/no protocol 0\.3 interface.*VersionNotSupported/)],
    ]);
    const get = (headers: Record<string, string> = {}) => fetch(`${server.url}${CARD_PATH}`, { headers });

    expect(await (await get()).json()).toEqual(AgentCard.toJSON(card));
    expect((await fetch(`${server.url}/.well-known/agent.json`)).status).toBe(404);
    const refused = await get({ 'A2A-Version': '0.3' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: { message: expect.stringMatching(/Supported versions: 1\.0\. /) },
    });
    const v03Call = await fetch(`${server.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: {
          message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'Hi' }] },
        },
      }),
    });
    expect(await v03Call.json()).toMatchObject({ error: { code: -32009 } });
    expect(model.callCount).toBe(0);
  });

  it('serves a client before 0.3 (@a2a-js/sdk 0.2.x) at the path it asks, /.well-known/agent.json, and it completes a task', async () => {
    host = await startHost({ turns: lookupTurns });
    // The client of 0.2.x, as its users make it: the base URL, the card at its default path.
    const client = new Sdk02Client(host.url);
    const card = await client.getAgentCard();
    expect(card).toMatchObject({ name: host.card.name, url: `${host.url}/a2a/jsonrpc` });
    const reply = await client.sendMessage({
      message: {
        kind: 'message',
        messageId: 'm-02',
        role: 'user',
        parts: [{ kind: 'text', text: 'Where is order A10086?' }],
      },
    });
    expect('result' in reply ? reply.result : reply).toMatchObject({
      kind: 'task',
      status: { state: 'completed' },
      artifacts: [{ parts: [{ kind: 'text', text: 'Order A10086 has shipped with DHL.' }] }],
    });
    // The same shapes, the same validators, at either path.
    const at = (path: string) => fetch(`${host?.url}${path}`);
    const [legacy, current] = await Promise.all([at('/.well-known/agent.json'), at(CARD_PATH)]);
    expect(legacy.headers.get('etag')).toBe(current.headers.get('etag'));
    expect(await legacy.json()).toEqual(await current.json());
  });
});

describe('buildAgentCard', () => {
  const OrderId = z.object({ orderId: z.string() });
  const tools = () => [
    refundTool(),
    defineTool({
      name: 'get_order',
      summary: 'Look up an order.',
      whenToUse: 'The customer asks about an order.',
      input: OrderId,
      risk: 'read',
      handler: () => ({}),
    }),
    defineTool({
      name: 'send_receipt',
      summary: 'Email the receipt.',
      whenToUse: 'After a purchase question.',
      input: OrderId,
      risk: 'write',
      idempotent: true,
      handler: () => ({}),
    }),
    defineTool({
      name: 'wipe_orders',
      summary: 'Delete every order.',
      whenToUse: 'Never in production.',
      input: z.object({}),
      risk: 'dangerous',
      describeForApproval: () => ({ action: 'Delete every order', reversible: false }),
      handler: () => ({}),
    }),
  ];
  const permitted = ['refund_order', 'get_order', 'send_receipt'];
  const address = defaultQueueAddress('orders');
  const interfaces = [
    ...a2aHttpInterfaces({ baseUrl: 'http://localhost:8080' }),
    { url: queueUrl(address), protocolBinding: BULLMQ_BINDING },
  ];
  const build = (options: { reversed?: boolean; legacyCompat?: boolean } = {}) =>
    buildAgentCard({
      agent: defineAgent({
        name: 'orders',
        description: 'Answers order questions.',
        instructions: 'Help with orders.',
        tools: options.reversed ? tools().reverse() : tools(),
        permissions: { tools: options.reversed ? [...permitted].reverse() : permitted },
      }),
      interfaces,
      bearerAuth: true,
      provider: { organization: 'Example Shop', url: 'https://shop.example' },
      examples: { get_order: ['Where is order A10086?'] },
      ...(options.legacyCompat === undefined ? {} : { legacyCompat: options.legacyCompat }),
    });

  it('publishes the permission manifest: each permitted tool with risk, approval and idempotency', () => {
    const card = build();
    const [extension, ...others] = card.capabilities?.extensions ?? [];
    expect(others).toEqual([]);
    expect(extension).toMatchObject({ uri: PERMISSIONS_EXTENSION_URI, required: false });
    expect(extension?.description).toMatch(/permission manifest/);
    expect(PermissionManifest.parse(extension?.params)).toEqual({
      tools: [
        { name: 'get_order', risk: 'read', requiresApproval: false, idempotent: true },
        { name: 'refund_order', risk: 'dangerous', requiresApproval: true, idempotent: false },
        { name: 'send_receipt', risk: 'write', requiresApproval: false, idempotent: true },
      ],
    });
    const json = AgentCard.toJSON(card) as { capabilities: { extensions: unknown[] } };
    expect(json.capabilities.extensions).toEqual([
      {
        uri: PERMISSIONS_EXTENSION_URI,
        description: extension?.description,
        params: extension?.params,
      },
    ]);
    expect(AgentCard.fromJSON(json).capabilities?.extensions[0]?.params).toEqual(extension?.params);
  });

  it('has one skill per permitted tool, described for a caller, with its risk and examples', () => {
    const card = build();
    expect(card.capabilities).toMatchObject({
      streaming: true,
      pushNotifications: false,
      extendedAgentCard: false,
    });
    expect(card.skills.map((skill) => skill.id)).toEqual(['get_order', 'refund_order', 'send_receipt']);
    expect(card.skills[1]).toMatchObject({
      name: 'Refund order',
      description:
        'Refund an order in full. Use when: The customer asks for their money back. Not for: The customer only asks about the status.',
      tags: ['dangerous', 'requires-approval'],
      examples: [],
    });
    expect(card.skills[0]).toMatchObject({ tags: ['read'], examples: ['Where is order A10086?'] });
    expect(card.securityRequirements).toEqual([{ schemes: { bearer: { list: [] } } }]);
    expect(card.provider).toEqual({ organization: 'Example Shop', url: 'https://shop.example' });
  });

  it('lists the HTTP interfaces again for protocol 0.3 (not the queue), unless legacyCompat is off', () => {
    const listed = (legacyCompat?: boolean) =>
      build(legacyCompat === undefined ? {} : { legacyCompat }).supportedInterfaces.map(
        (entry) => `${entry.protocolVersion} ${entry.protocolBinding} ${entry.url}`,
      );
    expect(listed()).toEqual([
      '1.0 JSONRPC http://localhost:8080/a2a/jsonrpc',
      '1.0 HTTP+JSON http://localhost:8080/a2a/rest',
      `1.0 ${BULLMQ_BINDING} ${queueUrl(address)}`,
      '0.3 JSONRPC http://localhost:8080/a2a/jsonrpc',
      '0.3 HTTP+JSON http://localhost:8080/a2a/rest',
    ]);
    expect(listed(false)).toEqual(listed().slice(0, 3));
  });

  it('is deterministic: two builds, and builds from tools in another order, are deep-equal', () => {
    expect(build()).toEqual(build());
    expect(AgentCard.toJSON(build())).toEqual(AgentCard.toJSON(build()));
    expect(AgentCard.toJSON(build({ reversed: true }))).toEqual(AgentCard.toJSON(build()));
    expect(JSON.stringify(renderAgentCard({ card: build(), version: '0.3' }))).toBe(
      JSON.stringify(renderAgentCard({ card: build({ reversed: true }), version: '0.3' })),
    );
  });

  it('says a supervisor’s skill leads to an approval when a worker’s skill behind it needs one', () => {
    const worker = build();
    const tools = delegationTools({
      peers: [worker],
      clientFor: () => {
        throw new Error('not called');
      },
    });
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    // The delegation itself waits for no approval of its own; what it leads to does.
    expect(byName.orders_refund_order).toMatchObject({ risk: 'write', leadsTo: 'dangerous' });
    expect(byName.orders_send_receipt).toMatchObject({ risk: 'write', leadsTo: 'write' });
    expect(byName.orders_get_order).toMatchObject({ risk: 'read', leadsTo: 'read' });
    const supervisor = defineAgent({ name: 'supervisor', instructions: 'Delegate.', tools });
    const skill = (names: string[]) =>
      buildAgentCard({
        agent: supervisor,
        interfaces,
        skills: [{ id: 'support', name: 'Support', description: 'Helps customers.', tools: names }],
      });
    const refunds = skill(['orders_get_order', 'orders_refund_order', 'orders_send_receipt']);
    expect(refunds.skills[0]?.tags).toEqual(['dangerous', 'requires-approval']);
    const manifest = PermissionManifest.parse(refunds.capabilities?.extensions[0]?.params);
    expect(manifest.tools).toEqual([
      { name: 'orders_get_order', risk: 'read', requiresApproval: false, idempotent: true },
      { name: 'orders_refund_order', risk: 'write', requiresApproval: true, idempotent: true },
      { name: 'orders_send_receipt', risk: 'write', requiresApproval: false, idempotent: true },
    ]);
    const agentOf = (names: string[]) =>
      defineAgent({ name: 'supervisor', instructions: 'Delegate.', tools, permissions: { tools: names } });
    const noApproval = buildAgentCard({
      agent: agentOf(['orders_get_order', 'orders_send_receipt']),
      interfaces,
    });
    expect(noApproval.skills.map((entry) => entry.tags)).toEqual([['read'], ['write']]);
  });

  it('refuses examples for a tool the agent may not call, saying which it may', () => {
    const agent = defineAgent({
      name: 'orders',
      instructions: 'Help.',
      tools: tools(),
      permissions: { tools: permitted },
    });
    expect(() =>
      buildAgentCard({ agent, interfaces, examples: { wipe_orders: ['Delete everything'] } }),
    ).toThrow(/examples names "wipe_orders".*may call: get_order, refund_order, send_receipt/);
    expect(() => buildAgentCard({ agent, interfaces: [] })).toThrow(/interfaces must list at least one/);
  });
});
