import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { ChatModel, ChatRequest, ChatResponse } from '@switchboard/agent';
import type {
  ChatCompletionChunk,
  ChatCompletionErrorBody,
  ChatCompletionRequestBody,
  ChatCompletionResponse,
  ChunkToolCallDelta,
  CompletionUsage,
} from '../openai-wire.ts';

/** Writes an error in OpenAI's shape: `{ error: { message, type, param, code } }`. */
export function sendError(
  res: ServerResponse,
  status: number,
  {
    message,
    type = 'invalid_request_error',
    param = null,
    code = null,
  }: Partial<ChatCompletionErrorBody['error']>,
): void {
  const body: ChatCompletionErrorBody = {
    error: { message: message ?? 'Request failed.', type, param, code },
  };
  sendJson(res, status, body);
}

/** The error a failing model turns into: generic, so the model's own error text never leaks. */
export const SERVER_ERROR = {
  message: 'The server had an error while processing your request.',
  type: 'server_error',
  param: null,
  code: null,
} as const satisfies ChatCompletionErrorBody['error'];

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Maps a validated request body to the model port's request. */
export function toChatRequest(body: ChatCompletionRequestBody, signal: AbortSignal): ChatRequest {
  return {
    messages: body.messages,
    ...(body.tools ? { tools: body.tools } : {}),
    ...(body.tool_choice !== undefined ? { toolChoice: body.tool_choice } : {}),
    ...(body.parallel_tool_calls !== undefined ? { parallelToolCalls: body.parallel_tool_calls } : {}),
    ...(body.response_format ? { responseFormat: body.response_format } : {}),
    ...(body.temperature !== undefined ? { temperature: body.temperature } : {}),
    ...(body.max_tokens !== undefined ? { maxTokens: body.max_tokens } : {}),
    signal,
  };
}

function toWireUsage({ usage }: ChatResponse): CompletionUsage {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
  };
}

/** Answers with one `chat.completion` object from `model.generate()`. */
export async function answerOnce(model: ChatModel, request: ChatRequest, res: ServerResponse): Promise<void> {
  const response = await model.generate(request);
  const body: ChatCompletionResponse = {
    id: response.id ?? `chatcmpl-${randomUUID()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: response.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: response.message.content,
          ...(response.message.tool_calls?.length ? { tool_calls: response.message.tool_calls } : {}),
        },
        finish_reason: response.finishReason,
      },
    ],
    usage: toWireUsage(response),
  };
  if (!request.signal?.aborted) sendJson(res, 200, body);
}

/** Splits tool arguments into a few fragments, as real endpoints stream them. */
function fragments(text: string, count = 3): string[] {
  const size = Math.max(1, Math.ceil(text.length / count));
  const parts: string[] = [];
  for (let start = 0; start < text.length; start += size) parts.push(text.slice(start, start + size));
  return parts;
}

/**
 * Answers with `text/event-stream` chunks driven by `model.stream()`: a role delta, content and
 * tool-call deltas, a chunk with the finish reason, a usage chunk when asked for, then `[DONE]`.
 * A model that fails before its first event throws (the caller answers 500); after it, an error
 * event ends the stream.
 */
export async function answerStream(
  model: ChatModel,
  request: ChatRequest,
  body: ChatCompletionRequestBody,
  res: ServerResponse,
  onError: (error: unknown) => void,
): Promise<void> {
  const signal = request.signal;
  const id = `chatcmpl-${randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  let started = false;
  const write = (data: unknown): void => {
    if (!started) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      started = true;
    }
    res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  };
  const chunk = (choices: ChatCompletionChunk['choices'], usage?: CompletionUsage): ChatCompletionChunk => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: model.modelId,
    choices,
    ...(usage ? { usage } : {}),
  });
  const delta = (d: ChatCompletionChunk['choices'][number]['delta']) =>
    chunk([{ index: 0, delta: d, finish_reason: null }]);
  const toolDelta = (call: ChunkToolCallDelta) => delta({ tool_calls: [call] });
  try {
    for await (const event of model.stream(request)) {
      if (signal?.aborted) return;
      if (!started) write(delta({ role: 'assistant', content: '' }));
      if (event.type === 'text-delta') {
        write(delta({ content: event.delta }));
      } else if (event.type === 'tool-call-delta') {
        const { index, id: callId, name, argumentsDelta = '' } = event;
        if (callId || name) {
          write(toolDelta({ index, id: callId, type: 'function', function: { name, arguments: '' } }));
        }
        for (const part of fragments(argumentsDelta))
          write(toolDelta({ index, function: { arguments: part } }));
      } else {
        write(chunk([{ index: 0, delta: {}, finish_reason: event.response.finishReason }]));
        if (body.stream_options?.include_usage) write(chunk([], toWireUsage(event.response)));
      }
    }
  } catch (error) {
    if (!started) throw error;
    if (!signal?.aborted) {
      onError(error);
      write({ error: SERVER_ERROR });
    }
    res.end();
    return;
  }
  write('[DONE]');
  res.end();
}
