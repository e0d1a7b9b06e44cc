import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { AgentError, type ChatModel } from '@switchboard/agent';
import { ChatCompletionRequestBody } from '../openai-wire.ts';
import { answerEmbeddings, type EmbedText } from './embeddings-endpoint.ts';
import {
  answerOnce,
  answerStream,
  SERVER_ERROR,
  sendError,
  toChatRequest,
} from './openai-compatible-answer.ts';

/** Options of {@link startOpenAICompatibleServer}. */
export interface OpenAICompatibleServerOptions {
  /** The model that answers, typically a `ScriptedModel`. */
  model: ChatModel;
  /** Interface to listen on (default `127.0.0.1`). */
  host?: string;
  /** Port to listen on (default `0`: any free port). */
  port?: number;
  /**
   * When set, requests must carry `Authorization: Bearer <apiKey>` or get 401. Like some compatible
   * servers, the 401 message echoes the key presented, so tests can check clients keep it out of theirs.
   */
  apiKey?: string;
  /** Largest request body accepted, in bytes (default 1 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /** Called with what the model threw; the HTTP client only sees a generic 500. */
  onError?: (error: unknown) => void;
  /**
   * When set, the server also serves `POST /v1/embeddings`, embedding each input text with it (a
   * deterministic stand-in for an embedding model, at the model boundary like `model`).
   */
  embed?: EmbedText;
}

/** A running {@link startOpenAICompatibleServer}. */
export interface OpenAICompatibleServer {
  /** The base URL to give an OpenAI client, e.g. `http://127.0.0.1:41234/v1`. */
  readonly baseURL: string;
  /** Every valid request body received, in order. */
  readonly requests: readonly ChatCompletionRequestBody[];
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

interface ServerContext {
  model: ChatModel;
  apiKey: string | undefined;
  maxBodyBytes: number;
  onError: (error: unknown) => void;
  requests: ChatCompletionRequestBody[];
  embed: EmbedText | undefined;
}

/**
 * Serves a {@link ChatModel} as an OpenAI-compatible `POST /v1/chat/completions` endpoint on
 * loopback, streaming and not, so tests can drive the real `openai` client over real HTTP.
 *
 * @example
 * import { OpenAIChatModel } from '@switchboard/openai';
 *
 * const scripted = new ScriptedModel({ turns: [{ text: 'Hello!' }] });
 * const server = await startOpenAICompatibleServer({ model: scripted });
 * const model = new OpenAIChatModel({ model: 'scripted', apiKey: 'test', baseURL: server.baseURL });
 * // ... later
 * await server.close();
 */
export async function startOpenAICompatibleServer({
  model,
  host = '127.0.0.1',
  port = 0,
  apiKey,
  maxBodyBytes = 1024 * 1024,
  onError = () => {},
  embed,
}: OpenAICompatibleServerOptions): Promise<OpenAICompatibleServer> {
  const problems = [
    typeof model?.generate !== 'function' || typeof model?.stream !== 'function'
      ? 'model must be a ChatModel (e.g. a ScriptedModel)'
      : undefined,
    host ? undefined : 'host must not be empty; leave it out for 127.0.0.1',
    Number.isInteger(port) && port >= 0 && port <= 65535 ? undefined : 'port must be 0 (any) to 65535',
    apiKey === '' ? 'apiKey must not be empty; leave it out to accept any key' : undefined,
    embed === undefined || typeof embed === 'function'
      ? undefined
      : 'embed must be a function from a text to its vector',
    Number.isInteger(maxBodyBytes) && maxBodyBytes > 0
      ? undefined
      : 'maxBodyBytes must be a positive integer',
  ].filter((problem) => problem !== undefined);
  if (problems.length) {
    throw new AgentError('INVALID_OPTIONS', {
      message: `startOpenAICompatibleServer(...) got invalid options: ${problems.join('; ')}.`,
    });
  }
  const context: ServerContext = { model, apiKey, maxBodyBytes, onError, requests: [], embed };
  const server = createServer((req, res) => {
    handle(req, res, context).catch((error: unknown) => {
      context.onError(error);
      if (!res.headersSent) sendError(res, 500, SERVER_ERROR);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  return {
    baseURL: `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}/v1`,
    requests: context.requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, context: ServerContext): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  const embeddings = path === '/v1/embeddings' && context.embed !== undefined;
  if (path !== '/v1/chat/completions' && !embeddings) {
    return sendError(res, 404, {
      message: `Unknown path ${path}. This server serves POST /v1/chat/completions${context.embed ? ' and POST /v1/embeddings' : ''}.`,
      code: 'unknown_url',
    });
  }
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    return sendError(res, 405, { message: `Method ${req.method} is not allowed here; use POST.` });
  }
  if (context.apiKey !== undefined) {
    const presented = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (!sameText(presented, context.apiKey)) {
      return sendError(res, 401, {
        message: `Incorrect API key provided: ${presented || '(none)'}.`,
        code: 'invalid_api_key',
      });
    }
  }
  const text = await readBody(req, context.maxBodyBytes);
  if (text === undefined) {
    return sendError(res, 413, {
      message: `The request body is larger than ${context.maxBodyBytes} bytes.`,
      code: 'request_too_large',
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return sendError(res, 400, { message: 'The request body is not valid JSON.', code: 'invalid_json' });
  }
  if (embeddings && context.embed) return answerEmbeddings(json, context.embed, res);
  const parsed = ChatCompletionRequestBody.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = issue ? formatPath(issue.path) : '';
    return sendError(res, 400, {
      message: `Invalid request body${param ? ` at "${param}"` : ''}: ${issue?.message ?? 'invalid shape'}.`,
      param: param || null,
      code: 'invalid_value',
    });
  }
  const body = parsed.data;
  context.requests.push(body);
  const controller = new AbortController();
  // The client went away before the answer was complete: stop the model.
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const request = toChatRequest(body, controller.signal);
  try {
    if (body.stream) await answerStream(context.model, request, body, res, context.onError);
    else await answerOnce(context.model, request, res);
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
}

/** Reads the body as text, or `undefined` when it is larger than `limit` (the rest is drained). */
async function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const declared = Number(req.headers['content-length'] ?? 0);
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = declared > limit;
  for await (const piece of req) {
    const buffer = Buffer.isBuffer(piece) ? piece : Buffer.from(String(piece));
    size += buffer.length;
    if (size > limit) tooLarge = true;
    if (!tooLarge) chunks.push(buffer);
  }
  return tooLarge ? undefined : Buffer.concat(chunks).toString('utf8');
}

function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i ? '.' : ''}${String(key)}`))
    .join('');
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
