import { createServer } from 'node:http';
import {
  AgentError,
  type ChatMessage,
  type ChatModel,
  type ChatStreamEvent,
  type ResponseFormat,
  type ToolDeclaration,
} from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIChatModel, type OpenAIChatModelOptions } from '../src/index.ts';
import {
  type OpenAICompatibleServer,
  type OpenAICompatibleServerOptions,
  startOpenAICompatibleServer,
} from '../src/testing/index.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function serve(options: OpenAICompatibleServerOptions): Promise<OpenAICompatibleServer> {
  const server = await startOpenAICompatibleServer(options);
  closers.push(() => server.close());
  return server;
}

function connect(baseURL: string, overrides: Partial<OpenAIChatModelOptions> = {}): OpenAIChatModel {
  return new OpenAIChatModel({ model: 'gpt-test', apiKey: 'sk-test', baseURL, maxRetries: 0, ...overrides });
}

async function rejectionOf(run: () => Promise<unknown>): Promise<AgentError> {
  const error = await run().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AgentError);
  if (!(error instanceof AgentError)) throw new Error('expected an AgentError');
  return error;
}

async function collect(events: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const seen: ChatStreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** A model that starts answering, then waits until its request is aborted. */
function hangingModel() {
  const entered = deferred();
  const aborted = deferred();
  const waitForAbort = async (signal: AbortSignal | undefined): Promise<never> => {
    entered.resolve();
    await new Promise<void>((done) => signal?.addEventListener('abort', () => done(), { once: true }));
    aborted.resolve();
    throw new AgentError('ABORTED');
  };
  const model: ChatModel = {
    modelId: 'hanging',
    provider: 'test',
    capabilities: { jsonSchema: true, jsonObject: true, parallelToolCalls: true },
    generate: ({ signal }) => waitForAbort(signal),
    async *stream({ signal }) {
      yield { type: 'text-delta', delta: 'Thinking' };
      await waitForAbort(signal);
    },
  };
  return { model, entered: entered.promise, aborted: aborted.promise };
}

/** Streams the scripted text word by word, so the client sees several content deltas. */
function wordByWord(scripted: ScriptedModel): ChatModel {
  return {
    modelId: scripted.modelId,
    provider: scripted.provider,
    capabilities: scripted.capabilities,
    generate: (request) => scripted.generate(request),
    async *stream(request) {
      for await (const event of scripted.stream(request)) {
        if (event.type !== 'text-delta') yield event;
        else for (const word of event.delta.split(/(?<= )/)) yield { type: 'text-delta', delta: word };
      }
    },
  };
}

const getOrder: ToolDeclaration = {
  type: 'function',
  function: {
    name: 'get_order',
    description: 'Look up one order by its id. Use it before answering any question about an order.',
    parameters: {
      type: 'object',
      properties: { orderId: { type: 'string' } },
      required: ['orderId'],
      additionalProperties: false,
    },
  },
};
const ask: ChatMessage[] = [
  { role: 'system', content: 'You are a support agent.' },
  { role: 'user', content: 'Where is order A10086?' },
];

describe('OpenAIChatModel over a local OpenAI-compatible server', () => {
  it('answers in plain text with usage, and sends only the fields that apply', async () => {
    const scripted = new ScriptedModel({
      turns: [{ text: 'It shipped yesterday.', usage: { promptTokens: 12, completionTokens: 5 } }],
    });
    const server = await serve({ model: scripted });
    const response = await connect(server.baseURL).generate({
      messages: ask,
      temperature: 0.2,
      maxTokens: 100,
      toolChoice: 'auto',
      parallelToolCalls: true,
    });

    expect(response).toEqual({
      message: { role: 'assistant', content: 'It shipped yesterday.' },
      finishReason: 'stop',
      usage: { promptTokens: 12, completionTokens: 5, totalTokens: 17 },
      model: 'scripted',
      id: 'scripted-0',
    });
    expect(scripted.requests[0]?.messages).toEqual(ask);
    const [sent] = server.requests;
    expect(sent).toMatchObject({ model: 'gpt-test', stream: false, temperature: 0.2, max_tokens: 100 });
    expect(sent).not.toHaveProperty('tool_choice');
    expect(sent).not.toHaveProperty('parallel_tool_calls');
  });

  it('round-trips a tool call: declarations reach the model, the result goes back', async () => {
    const scripted = new ScriptedModel({
      turns: [
        { toolCalls: [{ name: 'get_order', arguments: { orderId: 'A10086' } }] },
        { text: 'Order A10086 shipped yesterday.' },
      ],
    });
    const server = await serve({ model: scripted });
    const model = connect(server.baseURL);
    const first = await model.generate({
      messages: ask,
      tools: [getOrder],
      toolChoice: 'auto',
      parallelToolCalls: false,
    });
    const call = {
      id: 'call_0_0',
      type: 'function',
      function: { name: 'get_order', arguments: '{"orderId":"A10086"}' },
    };
    expect(first.message).toEqual({ role: 'assistant', content: null, tool_calls: [call] });
    expect(first.finishReason).toBe('tool_calls');

    const history: ChatMessage[] = [
      ...ask,
      first.message,
      { role: 'tool', tool_call_id: 'call_0_0', content: '{"status":"shipped"}' },
    ];
    const second = await model.generate({ messages: history, tools: [getOrder] });
    expect(second.message.content).toBe('Order A10086 shipped yesterday.');

    expect(scripted.requests[0]).toMatchObject({
      tools: [getOrder],
      toolChoice: 'auto',
      parallelToolCalls: false,
    });
    expect(scripted.requests[1]?.messages).toEqual(history);
    expect(server.requests[1]?.parallel_tool_calls).toBeUndefined();
  });

  it('assembles two parallel tool calls of one message in order', async () => {
    const scripted = new ScriptedModel({
      turns: [
        {
          toolCalls: [
            { id: 'call_a', name: 'get_order', arguments: { orderId: 'A1' } },
            { id: 'call_b', name: 'get_order', arguments: { orderId: 'B2' } },
          ],
        },
      ],
    });
    const server = await serve({ model: scripted });
    const response = await connect(server.baseURL).generate({ messages: ask, tools: [getOrder] });
    expect(response.message.tool_calls?.map((c) => [c.id, c.function.arguments])).toEqual([
      ['call_a', '{"orderId":"A1"}'],
      ['call_b', '{"orderId":"B2"}'],
    ]);
    expect(response.finishReason).toBe('tool_calls');
  });

  it('streams text deltas in order and reassembles tool call arguments exactly', async () => {
    const tricky = { orderId: 'A10086', note: 'café "quoted" \\ back\nslash 订单' };
    const scripted = new ScriptedModel({
      turns: [
        {
          text: 'Let me look that up for you.',
          toolCalls: [
            { id: 'call_1', name: 'get_order', arguments: tricky },
            { id: 'call_2', name: 'get_order', arguments: { orderId: 'B2' } },
          ],
          usage: { promptTokens: 20, completionTokens: 7 },
        },
      ],
    });
    const server = await serve({ model: wordByWord(scripted) });
    const events = await collect(connect(server.baseURL).stream({ messages: ask, tools: [getOrder] }));

    const texts = events.flatMap((e) => (e.type === 'text-delta' ? [e.delta] : []));
    expect(texts).toEqual(['Let ', 'me ', 'look ', 'that ', 'up ', 'for ', 'you.']);
    const firstCallFragments = events.flatMap((e) =>
      e.type === 'tool-call-delta' && e.index === 0 && e.argumentsDelta ? [e.argumentsDelta] : [],
    );
    expect(firstCallFragments.length).toBeGreaterThan(1);
    expect(firstCallFragments.join('')).toBe(JSON.stringify(tricky));

    const last = events.at(-1);
    if (last?.type !== 'finish') throw new Error(`expected a finish event last, got ${last?.type}`);
    expect(last.response.message).toEqual({
      role: 'assistant',
      content: 'Let me look that up for you.',
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'get_order', arguments: JSON.stringify(tricky) },
        },
        { id: 'call_2', type: 'function', function: { name: 'get_order', arguments: '{"orderId":"B2"}' } },
      ],
    });
    expect(last.response.finishReason).toBe('tool_calls');
    expect(last.response.usage).toEqual({ promptTokens: 20, completionTokens: 7, totalTokens: 27 });
    expect(server.requests[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('passes a strict json_schema response format through intact', async () => {
    const responseFormat: ResponseFormat = {
      type: 'json_schema',
      json_schema: {
        name: 'order_status',
        description: 'The status of one order.',
        schema: {
          type: 'object',
          properties: { orderId: { type: 'string' }, status: { enum: ['pending', 'shipped'] } },
          required: ['orderId', 'status'],
          additionalProperties: false,
        },
        strict: true,
      },
    };
    const scripted = new ScriptedModel({ turns: [{ text: '{"orderId":"A10086","status":"shipped"}' }] });
    const server = await serve({ model: scripted });
    const response = await connect(server.baseURL).generate({ messages: ask, responseFormat });
    expect(scripted.requests[0]?.responseFormat).toEqual(responseFormat);
    expect(server.requests[0]?.response_format).toEqual(responseFormat);
    expect(JSON.parse(response.message.content ?? '')).toEqual({ orderId: 'A10086', status: 'shipped' });
  });
});

describe('OpenAIChatModel errors', () => {
  it('maps 401 to MODEL_AUTH without the key in the message or details', async () => {
    const scripted = new ScriptedModel({ turns: [{ text: 'never' }] });
    const server = await serve({ model: scripted, apiKey: 'sk-right-key' });
    const wrongKey = 'sk-wrong-secret-4242';
    const error = await rejectionOf(() =>
      connect(server.baseURL, { apiKey: wrongKey }).generate({ messages: ask }),
    );
    expect(error.code).toBe('MODEL_AUTH');
    expect(error.message).toContain(server.baseURL);
    expect(error.message).toContain('HTTP 401');
    expect(error.message).not.toContain(wrongKey);
    expect(JSON.stringify(error.details)).not.toContain(wrongKey);
    // The server echoed the key, so the raw error does carry it: the adapter kept it out.
    expect(String(error.cause)).toContain(wrongKey);
    expect(scripted.callCount).toBe(0);
  });

  it('maps nothing listening on the port to MODEL_UNAVAILABLE', async () => {
    const server = await startOpenAICompatibleServer({ model: new ScriptedModel({ turns: [] }) });
    await server.close();
    const error = await rejectionOf(() => connect(server.baseURL).generate({ messages: ask }));
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.message).toContain(server.baseURL);
  });

  it('maps an abort during a call to ABORTED and aborts the model behind the server', async () => {
    const hanging = hangingModel();
    const server = await serve({ model: hanging.model });
    const controller = new AbortController();
    const call = rejectionOf(() =>
      connect(server.baseURL).generate({ messages: ask, signal: controller.signal }),
    );
    await hanging.entered;
    controller.abort();
    expect((await call).code).toBe('ABORTED');
    await hanging.aborted;
  });

  it('maps an abort in the middle of a stream to ABORTED, not to a short answer', async () => {
    const hanging = hangingModel();
    const server = await serve({ model: hanging.model });
    const controller = new AbortController();
    const seen: ChatStreamEvent[] = [];
    const error = await rejectionOf(async () => {
      for await (const event of connect(server.baseURL).stream({
        messages: ask,
        signal: controller.signal,
      })) {
        seen.push(event);
        controller.abort();
      }
    });
    expect(error.code).toBe('ABORTED');
    expect(seen).toEqual([{ type: 'text-delta', delta: 'Thinking' }]);
    await hanging.aborted;
  });

  it('maps a rejected request to MODEL_BAD_REQUEST with the reason in details', async () => {
    const server = await serve({ model: new ScriptedModel({ turns: [{ text: 'never' }] }) });
    const error = await rejectionOf(() =>
      connect(server.baseURL).generate({ messages: ask, temperature: 7 }),
    );
    expect(error.code).toBe('MODEL_BAD_REQUEST');
    expect(error.details).toMatchObject({ status: 400, param: 'temperature' });
  });

  it('maps a model failure behind the server to MODEL_UNAVAILABLE without its text', async () => {
    const failures: unknown[] = [];
    const scripted = new ScriptedModel({ turns: [{ error: new Error('db password is hunter2') }] });
    const server = await serve({ model: scripted, onError: (error) => failures.push(error) });
    const error = await rejectionOf(() => connect(server.baseURL).generate({ messages: ask }));
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.message).toContain('HTTP 500');
    expect(JSON.stringify([error.message, error.details])).not.toContain('hunter2');
    expect(failures).toHaveLength(1);
  });

  it('maps a response with no choices to MODEL_BAD_RESPONSE, with an injected client', async () => {
    const bare = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [] }));
    });
    await new Promise<void>((done) => bare.listen(0, '127.0.0.1', done));
    closers.push(() => new Promise<void>((done) => bare.close(() => done())));
    const address = bare.address();
    const baseURL = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`;
    const client = new OpenAI({ apiKey: 'sk-test', baseURL, maxRetries: 0 });
    const error = await rejectionOf(() => connect(baseURL, { client }).generate({ messages: ask }));
    expect(error.code).toBe('MODEL_BAD_RESPONSE');
    expect(error.message).toContain('no choices');
  });

  it('refuses invalid options before doing anything, saying how to fix them', () => {
    expect(() => connect('http://127.0.0.1:1/v1', { model: '' })).toThrow(/model must name the model/);
    expect(() => connect('not a url')).toThrow(/baseURL must be an http\(s\) URL/);
    expect(() => connect('http://127.0.0.1:1/v1', { apiKey: '' })).toThrowError(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });
});
