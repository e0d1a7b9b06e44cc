import type { ChatMessage } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatCompletionErrorBody } from '../src/openai-wire.ts';
import {
  type OpenAICompatibleServer,
  type OpenAICompatibleServerOptions,
  startOpenAICompatibleServer,
} from '../src/testing/index.ts';

const servers: OpenAICompatibleServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(options: OpenAICompatibleServerOptions): Promise<OpenAICompatibleServer> {
  const server = await startOpenAICompatibleServer(options);
  servers.push(server);
  return server;
}

const ask: ChatMessage[] = [{ role: 'user', content: 'Where is order A10086?' }];

describe('startOpenAICompatibleServer', () => {
  it('answers a malformed body with 400 naming the problem, in the OpenAI error shape', async () => {
    const scripted = new ScriptedModel({ turns: [{ text: 'never' }] });
    const server = await serve({ model: scripted });
    const post = (body: string) =>
      fetch(`${server.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });

    const wrongType = await post(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 42 }] }));
    expect(wrongType.status).toBe(400);
    const { error } = ChatCompletionErrorBody.parse(await wrongType.json());
    expect(error).toMatchObject({ type: 'invalid_request_error', param: 'messages[0].content' });
    expect(error.message).toContain('messages[0].content');

    const notJson = await post('{"model": "m",');
    expect(notJson.status).toBe(400);
    expect(ChatCompletionErrorBody.parse(await notJson.json()).error.message).toContain('not valid JSON');

    expect((await fetch(`${server.baseURL}/models`)).status).toBe(404);
    expect(server.requests).toHaveLength(0);
    expect(scripted.callCount).toBe(0);
  });

  it('answers a body over the size limit with 413', async () => {
    const server = await serve({ model: new ScriptedModel({ turns: [] }), maxBodyBytes: 1000 });
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(2000) }] }),
    });
    expect(response.status).toBe(413);
  });

  it('answers a throwing model with 500 and a generic message', async () => {
    const scripted = new ScriptedModel({ turns: [{ error: new Error('secret stack: hunter2') }] });
    const server = await serve({ model: scripted });
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: ask }),
    });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('hunter2');
    expect(ChatCompletionErrorBody.parse(JSON.parse(text)).error.type).toBe('server_error');
    expect(scripted.callCount).toBe(1);
  });
});
