import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentCard, TaskState } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { defineAgent, defineTool, type Principal } from '@switchboard/agent';
import { MemoryLogger, ScriptedModel } from '@switchboard/agent/testing';
import {
  generateServiceKey,
  type JwtAuthenticatorOptions,
  jwtAuthenticator,
  serviceSigner,
} from '@switchboard/identity';
import { sendMessageRequest, userMessage } from '@switchboard/protocol';
import {
  type CryptoKey,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  SignJWT,
} from 'jose';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryApprovalBoard } from '../src/approvals.ts';
import { type AgentHost, hostAgent } from '../src/index.ts';

/** A stand-in identity provider: its key set on a loopback port, changeable while it runs. */
interface KeySetServer {
  issuer: string;
  jwksUrl: string;
  keys: JWK[];
  fetches: number;
  server: Server;
}

async function startKeySet(keys: JWK[]): Promise<KeySetServer> {
  const served: KeySetServer = { issuer: '', jwksUrl: '', keys, fetches: 0, server: createServer() };
  served.server.on('request', (req, res) => {
    if (req.url !== '/jwks') {
      res.writeHead(404).end();
      return;
    }
    served.fetches++;
    res
      .writeHead(200, { 'content-type': 'application/jwk-set+json' })
      .end(JSON.stringify({ keys: served.keys }));
  });
  served.server.listen(0, '127.0.0.1');
  await once(served.server, 'listening');
  const { port } = served.server.address() as AddressInfo;
  served.issuer = `http://127.0.0.1:${port}/realms/shop`;
  served.jwksUrl = `http://127.0.0.1:${port}/jwks`;
  return served;
}

async function closeServer(server: Server): Promise<void> {
  if (!server.listening) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  jwk: JWK;
}

async function signingKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  return {
    kid,
    privateKey,
    publicKey,
    jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
  };
}

const now = () => Math.floor(Date.now() / 1000);
const AUDIENCE = 'switchboard';
const STATIC_TOKEN = 'static-customer-token-0001';

let idp: KeySetServer;
let key1: SigningKey;
let key2: SigningKey;
let host: AgentHost | undefined;
let logger: MemoryLogger;
let seen: (Principal | undefined)[];

beforeAll(async () => {
  key1 = await signingKey('key-1');
  key2 = await signingKey('key-2');
});

beforeEach(async () => {
  idp = await startKeySet([key1.jwk]);
  logger = new MemoryLogger();
  seen = [];
});

afterEach(async () => {
  await host?.close({ graceMs: 0 });
  host = undefined;
  await closeServer(idp.server);
});

/** A token from the stand-in provider: signed by `key` (default key 1), valid for 5 minutes. */
function token(
  claims: JWTPayload,
  { key = key1, exp = now() + 300 }: { key?: SigningKey; exp?: number } = {},
) {
  return new SignJWT({ iss: idp.issuer, aud: AUDIENCE, exp, iat: now(), ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .sign(key.privateKey);
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Hosts an agent whose one tool reports who called it, accepting the provider's tokens and one static token. */
async function startIdpHost(identityProvider: Partial<JwtAuthenticatorOptions> = {}): Promise<AgentHost> {
  const whoami = defineTool({
    name: 'whoami',
    summary: 'Say who is asking.',
    whenToUse: 'Always.',
    input: z.object({}),
    risk: 'read',
    handler: (_input, context) => {
      seen.push(context.principal);
      return { principal: context.principal ?? null };
    },
  });
  const model = new ScriptedModel({
    turns: [],
    whenExhausted: (request) =>
      request.messages.at(-1)?.role === 'tool'
        ? { text: 'That is you.' }
        : { toolCalls: [{ name: 'whoami', arguments: {} }] },
  });
  host = await hostAgent({
    agent: defineAgent({ name: 'shop', instructions: 'Tell callers who they are.', tools: [whoami] }),
    model,
    logger,
    http: {},
    approvals: new MemoryApprovalBoard(),
    auth: {
      tokens: { customers: { [STATIC_TOKEN]: 'C900' } },
      identityProvider: {
        issuer: idp.issuer,
        audience: AUDIENCE,
        jwksUrl: idp.jwksUrl,
        rolesClaim: 'realm_access.roles',
        jwksCooldownSec: 0,
        ...identityProvider,
      },
    },
  });
  await host.start();
  return host;
}

/** Asks the agent who the caller is, with the SDK's JSON-RPC client; the principal its tool saw. */
async function whoAmI(bearer: string): Promise<Principal | undefined> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('Authorization', `Bearer ${bearer}`);
    return fetch(input, { ...init, headers });
  };
  const client = await new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  }).createFromUrl(host?.url ?? '');
  const before = seen.length;
  const result = await client.sendMessage(
    sendMessageRequest({ message: userMessage({ text: 'Who am I?' }) }),
  );
  expect('status' in result && result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  expect(seen.length).toBe(before + 1);
  return seen.at(-1);
}

/** Sends a request with `bearer` over REST; the status and body a refused caller gets. */
async function refusal(bearer: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${host?.url}/a2a/rest/message:send`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0', Authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'Who am I?' }] } }),
  });
  return { status: response.status, body: await response.text() };
}

/** The reasons the authenticator logged for refused tokens, in order. */
const refusals = () =>
  logger.entries
    .filter((entry) => entry.message === 'identity provider token refused')
    .map((entry) => entry.fields.reason);

describe('bearer JWTs from an identity provider', () => {
  it('lets a customer in with the id of its sub claim and the roles of its roles claim', async () => {
    await startIdpHost();
    const principal = await whoAmI(await token({ sub: 'C001', realm_access: { roles: ['vip'] } }));
    expect(principal).toEqual({ id: 'C001', kind: 'user', roles: ['vip'], via: [] });
    // The static token still works beside it.
    expect(await whoAmI(STATIC_TOKEN)).toMatchObject({ id: 'C900', kind: 'user' });
    expect(refusals()).toEqual([]);
  });

  it('makes a caller with the operator role an operator, whom the admin API lets in and a customer not', async () => {
    await startIdpHost();
    const operator = await token({ sub: 'ada', realm_access: { roles: ['operator', 'refunds:approve'] } });
    const customer = await token({ sub: 'C001', realm_access: { roles: ['vip'] } });
    expect(await whoAmI(operator)).toEqual({
      id: 'ada',
      kind: 'operator',
      roles: ['operator', 'refunds:approve'],
      via: [],
    });
    const admin = (bearer: string) =>
      fetch(`${host?.url}/admin/approvals`, { headers: { Authorization: `Bearer ${bearer}` } });
    const allowed = await admin(operator);
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toEqual({ approvals: [] });
    expect((await admin(customer)).status).toBe(401);
  });

  it('reads roles from a space-separated string and from a claim named as configured', async () => {
    await startIdpHost({ customerClaim: 'preferred_username', rolesClaim: 'scope' });
    const principal = await whoAmI(
      await token({ sub: 'f81d4fae', preferred_username: 'bob', scope: 'orders operator' }),
    );
    expect(principal).toEqual({ id: 'bob', kind: 'operator', roles: ['orders', 'operator'], via: [] });
  });

  it('accepts a token signed with a key the provider published after the first fetch, without a restart', async () => {
    await startIdpHost();
    expect(await whoAmI(await token({ sub: 'C001' }))).toMatchObject({ id: 'C001' });
    expect(idp.fetches).toBe(1);
    idp.keys = [key1.jwk, key2.jwk];
    expect(await whoAmI(await token({ sub: 'C002' }, { key: key2 }))).toMatchObject({ id: 'C002' });
    expect(idp.fetches).toBe(2);
    expect(await whoAmI(await token({ sub: 'C003' }))).toMatchObject({ id: 'C003' });
    expect(idp.fetches).toBe(2);
  });

  it('accepts a token expired within the clock tolerance, and refuses one expired beyond it', async () => {
    await startIdpHost({ clockToleranceSec: 30 });
    expect(await whoAmI(await token({ sub: 'C001' }, { exp: now() - 5 }))).toMatchObject({ id: 'C001' });
    expect((await refusal(await token({ sub: 'C001' }, { exp: now() - 120 }))).status).toBe(401);
    expect(refusals()).toEqual(['expired']);
  });

  it('refuses every token it cannot trust with the same 401, and logs why without the token', async () => {
    await startIdpHost();
    const baseline = await refusal('not-a-token-anyone-issued');
    expect(baseline.status).toBe(401);
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ iss: idp.issuer, aud: AUDIENCE, sub: 'C001', exp: now() + 300 })}.`;
    const publicPem = await exportSPKI(key1.publicKey);
    const confused = await new SignJWT({ sub: 'C001', iss: idp.issuer, aud: AUDIENCE, exp: now() + 300 })
      .setProtectedHeader({ alg: 'HS256', kid: key1.kid })
      .sign(new TextEncoder().encode(publicPem));
    const stranger = await signingKey('key-1');
    const cases: [string, string][] = [
      ['wrong audience', await token({ sub: 'C001', aud: 'another-api' })],
      ['wrong issuer', await token({ sub: 'C001', iss: 'https://login.example.com/realms/other' })],
      ['algorithm not allowed', unsigned],
      ['algorithm not allowed', confused],
      ['missing claim', await token({ sub: undefined })],
      ['missing claim', await token({ sub: 'C001', exp: undefined })],
      ['unknown key', await token({ sub: 'C001' }, { key: { ...key2, kid: 'key-9' } })],
      ['bad signature', await token({ sub: 'C001' }, { key: stranger })],
      ['id claim is a reserved id', await token({ sub: 'admin' })],
      ['id claim is not a valid id', await token({ sub: 'C001; DROP TABLE' })],
    ];
    for (const [, bearer] of cases) {
      expect(await refusal(bearer)).toEqual(baseline);
    }
    expect(refusals()).toEqual(cases.map(([reason]) => reason));
    expect(seen).toEqual([]);
    const logged = JSON.stringify(logger.entries);
    for (const [, bearer] of cases) expect(logged).not.toContain(bearer.split('.')[2] || bearer);
    expect(logged).not.toContain('C001; DROP TABLE');
  });

  it('refuses with a 401 and a warning while the key set cannot be fetched, and serves on', async () => {
    await closeServer(idp.server);
    await startIdpHost();
    const refused = await refusal(await token({ sub: 'C001' }));
    expect(refused.status).toBe(401);
    expect(refused.body).not.toMatch(/jwks|fetch|ECONNREFUSED|key/i);
    expect(logger.entries).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'identity provider token refused',
        fields: expect.objectContaining({ reason: 'identity provider keys unavailable' }),
      }),
    );
    expect(await whoAmI(STATIC_TOKEN)).toMatchObject({ id: 'C900' });
  });

  it('declares the OpenID Connect scheme next to the bearer one, either accepted, in both card versions', async () => {
    await startIdpHost();
    const card = async (version?: string) =>
      (await (
        await fetch(`${host?.url}/.well-known/agent-card.json`, {
          headers: version ? { 'A2A-Version': version } : {},
        })
      ).json()) as Record<string, unknown>;
    const discovery = `${idp.issuer}/.well-known/openid-configuration`;
    const v1 = await card('1.0');
    expect(v1.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: { description: 'Bearer token', scheme: 'Bearer' } },
      oidc: {
        openIdConnectSecurityScheme: {
          description: expect.any(String),
          openIdConnectUrl: discovery,
        },
      },
    });
    // ProtoJSON leaves the empty scope lists out: each entry names one scheme, and either will do.
    expect(v1.securityRequirements).toEqual([{ schemes: { bearer: {} } }, { schemes: { oidc: {} } }]);
    expect(AgentCard.fromJSON(v1).securitySchemes.oidc?.scheme?.$case).toBe('openIdConnectSecurityScheme');
    const v03 = await card('0.3');
    expect(v03.securitySchemes).toMatchObject({
      bearer: { type: 'http', scheme: 'Bearer' },
      oidc: { type: 'openIdConnect', openIdConnectUrl: discovery },
    });
    expect(v03.security).toEqual([{ bearer: [] }, { oidc: [] }]);
  });

  it('refuses options it could not verify safely, saying how to fix them', async () => {
    const options = { issuer: idp.issuer, audience: AUDIENCE, jwksUrl: idp.jwksUrl };
    const start = (extra: Record<string, unknown>) =>
      hostAgent({
        agent: defineAgent({ name: 'shop', instructions: 'x', tools: [] }),
        model: new ScriptedModel({ turns: [] }),
        logger,
        http: {},
        auth: { identityProvider: { ...options, ...extra } as JwtAuthenticatorOptions },
      });
    await expect(start({ jwksUrl: 'http://login.example.com/jwks' })).rejects.toThrow(
      /jwksUrl: must be an https:\/\/ URL \(http:\/\/ only for a loopback host/,
    );
    await expect(start({ algorithms: ['HS256'] })).rejects.toThrow(/never "none" or HS\*/);
    await expect(start({ algorithms: ['none'] })).rejects.toThrow(/never "none" or HS\*/);
  });

  it('leaves a Switchboard service assertion to the service authenticator, without a word', async () => {
    const quiet = new MemoryLogger();
    const authenticate = jwtAuthenticator({
      issuer: idp.issuer,
      audience: AUDIENCE,
      jwksUrl: idp.jwksUrl,
      logger: quiet,
    });
    const signer = serviceSigner({
      key: generateServiceKey({ service: 'supervisor', label: 'k1' }).privateKey,
    });
    const assertion = await signer.sign({ audience: AUDIENCE });
    expect(await authenticate({ authorization: `Bearer ${assertion}` })).toBeUndefined();
    expect(quiet.entries).toEqual([]);
  });
});
