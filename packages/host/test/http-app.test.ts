import { AgentCard } from '@a2a-js/sdk';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { staticTokenAuthenticator } from '@switchboard/identity';
import { afterEach, describe, expect, it } from 'vitest';
import { createA2aHttpApp } from '../src/http.ts';
import { createAgentHandler } from '../src/index.ts';
import { type Host, send, sendTask, startHost, userMessage } from './support/http-host.ts';

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe('the HTTP app around the agent', () => {
  const tokens = { customers: { 'customer-token': 'C001' }, operators: { 'operator-token': 'ada' } };
  const post = (path: string, body: string, token?: string) =>
    fetch(`${host?.url}${path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'A2A-Version': '1.0',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body,
    });

  it('serves the v1.0 card as ProtoJSON with caching headers, 304 on a matching ETag, without a token', async () => {
    host = await startHost({ turns: [], auth: tokens });
    const v1 = { 'A2A-Version': '1.0' };
    const response = await fetch(`${host.url}/.well-known/agent-card.json`, { headers: v1 });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    const lastModified = Date.parse(response.headers.get('last-modified') ?? '');
    expect(lastModified).toBeLessThanOrEqual(Date.now());
    expect(Date.now() - lastModified).toBeLessThan(60 * 60_000);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual(AgentCard.toJSON(host.card));
    expect(body.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: { description: 'Bearer token', scheme: 'Bearer' } },
    });
    expect(AgentCard.fromJSON(body).securitySchemes.bearer?.scheme?.$case).toBe('httpAuthSecurityScheme');
    const etag = response.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    const again = await fetch(`${host.url}/.well-known/agent-card.json`, {
      headers: { ...v1, 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('answers /healthz always and /readyz from the readiness check, without a token', async () => {
    let ready: boolean | Error = true;
    host = await startHost({
      turns: [],
      auth: tokens,
      readiness: async () => {
        if (ready instanceof Error) throw ready;
        return ready;
      },
    });
    const get = async (path: string) => {
      const response = await fetch(`${host?.url}${path}`);
      return [response.status, await response.json()];
    };
    expect(await get('/healthz')).toEqual([200, { status: 'ok' }]);
    expect(await get('/readyz')).toEqual([200, { status: 'ready' }]);
    ready = false;
    expect(await get('/readyz')).toEqual([
      503,
      { status: 'unavailable', reason: expect.stringMatching(/not ready/) },
    ]);
    ready = new Error('redis down');
    expect(await get('/readyz')).toEqual([
      503,
      { status: 'unavailable', reason: expect.stringMatching(/failed/) },
    ]);
    expect(await get('/healthz')).toEqual([200, { status: 'ok' }]);
  });

  it.each(['/a2a/jsonrpc', '/a2a/rest/message:send'])(
    'refuses %s without a valid bearer token: 401 with WWW-Authenticate',
    async (path) => {
      host = await startHost({ turns: [], auth: tokens });
      const missing = await post(path, '{}');
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
      const wrong = await post(path, '{}', 'guessed-token');
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
      const body = await wrong.json();
      if (path === '/a2a/jsonrpc')
        expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      else expect(body).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
      const client = await host.client(path === '/a2a/jsonrpc' ? 'JSONRPC' : 'HTTP+JSON');
      await expect(client.sendMessage(send(userMessage('Hi')))).rejects.toThrow();
      expect(host.model.callCount).toBe(0);
    },
  );

  it('keeps one user’s tasks from another by default', async () => {
    host = await startHost({ turns: [{ text: 'Hello customer.' }], auth: tokens });
    const task = await sendTask(await host.client('JSONRPC', 'customer-token'), 'Hello');
    const operator = await host.client('JSONRPC', 'operator-token');
    await expect(operator.getTask({ tenant: '', id: task.id })).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  it('answers an oversized body with 413 and invalid JSON with -32700 (JSON-RPC) or 400 (REST)', async () => {
    host = await startHost({ turns: [], auth: tokens });
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { pad: 'x'.repeat(1_100_000) },
    });
    const rpc = await post('/a2a/jsonrpc', huge, 'customer-token');
    expect(rpc.status).toBe(413);
    expect(await rpc.text()).toBe(
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Request body is larger than 256kb; send a smaller message."}}',
    );
    const rest = await post('/a2a/rest/message:send', huge, 'customer-token');
    expect(rest.status).toBe(413);
    expect(await rest.json()).toMatchObject({
      error: { code: 413, message: expect.stringMatching(/larger than 256kb/) },
    });

    const badRpc = await post('/a2a/jsonrpc', '{"jsonrpc": "2.0", "id": 1,', 'customer-token');
    expect(await badRpc.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    const badRest = await post('/a2a/rest/message:send', '{"message": {', 'customer-token');
    expect(badRest.status).toBe(400);
    expect(await badRest.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
  });

  it('answers a REST body that is not JSON by its Content-Type with 415, naming the types it takes', async () => {
    host = await startHost({ turns: [], auth: tokens });
    const response = await fetch(`${host.url}/a2a/rest/message:send`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', 'A2A-Version': '1.0', Authorization: 'Bearer customer-token' },
      body: JSON.stringify({ message: { role: 'ROLE_USER', parts: [{ text: 'hi' }], messageId: 'm-415' } }),
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({
      error: {
        code: 415,
        message: expect.stringMatching(
          /text\/plain; send JSON with Content-Type: application\/json or application\/a2a\+json/,
        ),
      },
    });
    const tasks = await fetch(`${host.url}/a2a/rest/tasks`, {
      headers: { 'A2A-Version': '1.0', Authorization: 'Bearer customer-token' },
    });
    expect(((await tasks.json()) as { tasks?: unknown[] }).tasks ?? []).toEqual([]);
  });

  it('refuses to turn auth on for a card that does not declare a bearer scheme', async () => {
    host = await startHost({ turns: [] });
    const { requestHandler, card } = createAgentHandler({
      agent: host.agent,
      model: host.model,
      card: host.card,
    });
    expect(() =>
      createA2aHttpApp({ requestHandler, card, auth: { authenticate: staticTokenAuthenticator(tokens) } }),
    ).toThrow(/declares no required HTTP bearer security scheme.*bearerAuth: true/);
    expect(() => createA2aHttpApp({ requestHandler, card, bodyLimit: 'lots' })).toThrow(/bodyLimit/);
  });
});
