import type { AgentCard } from '@a2a-js/sdk';
import { A2AError } from '@a2a-js/sdk/errors';
import {
  JsonRpcTransportHandler,
  ServerCallContext,
  STATE_HEADERS_KEY,
  type User,
  validateVersion,
} from '@a2a-js/sdk/server';
import type { QueueLogger } from '../logger.ts';
import type { JobEnvelope } from '../wire/envelope.ts';
import { BULLMQ_BINDING } from '../wire/queue-url.ts';
import { type QueueDelivery, setQueueDelivery } from './delivery.ts';
import { errorResponse, type ReplyWriter } from './reply-writer.ts';
import { reportUnexpectedError } from './unexpected-error.ts';

/**
 * What a worker knows of who sent a job: its service parameters (`authorization` carries what HTTP
 * would send as the `Authorization` header), the exact JSON-RPC request text the envelope carries
 * (what a credential bound to one request was made over), and the id of the job (the same on every
 * delivery of one job, so a credential used once can be told from one redelivered).
 */
export interface QueuePresented {
  serviceParameters: Readonly<Record<string, string>>;
  /** The envelope's `request`, byte for byte as the caller sent it. */
  request: string;
  /** The BullMQ job id; absent only when a job has none. */
  jobId: string | undefined;
}

/** Who sent a request, from what its job presents; undefined refuses the request. */
export type QueueAuthenticator = (presented: QueuePresented) => User | undefined | Promise<User | undefined>;

/** One request to serve, and what serving it needs. */
export interface ServeRequestOptions {
  envelope: JobEnvelope;
  delivery: QueueDelivery | undefined;
  reply: ReplyWriter;
  rpc: JsonRpcTransportHandler;
  card: AgentCard;
  authenticate: QueueAuthenticator;
  maxRequestBytes: number;
  /** See `A2aQueueServerOptions.inspectRequest`. */
  inspectRequest?: (request: unknown) => void;
  logger: QueueLogger;
}

type RpcId = string | number | null;

/** The JSON-RPC id of a parsed request, when it has a usable one. */
function idOf(request: unknown): RpcId {
  if (typeof request !== 'object' || request === null) return null;
  const id = (request as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * A JSON-RPC error response for an error raised by the SDK or the request handler, as HTTP maps it;
 * an error that is not an A2A error is logged and answered with a generic message and its error id.
 */
function mappedError(id: RpcId, error: unknown, logger: QueueLogger, requestId: string): string {
  if (!(error instanceof A2AError)) {
    return errorResponse(id, -32603, reportUnexpectedError({ error, logger, fields: { requestId } }));
  }
  return JSON.stringify({ jsonrpc: '2.0', id, error: JsonRpcTransportHandler.mapToJSONRPCError(error) });
}

/**
 * Serves one envelope as the JSON-RPC binding serves one HTTP request: size, JSON, authentication
 * and protocol version are checked here, the rest by the SDK's `JsonRpcTransportHandler`. Every
 * outcome of the request is a reply; what throws is a reply that cannot be written (the job is
 * retried) or an `authenticate` that fails.
 */
export async function serveRequest({
  envelope,
  delivery,
  reply,
  rpc,
  card,
  authenticate,
  maxRequestBytes,
  inspectRequest,
  logger,
}: ServeRequestOptions): Promise<void> {
  if (Buffer.byteLength(envelope.request) > maxRequestBytes) {
    return reply.end(
      errorResponse(null, -32600, `Request is larger than ${maxRequestBytes} bytes; send a smaller message.`),
    );
  }
  let request: unknown;
  try {
    request = JSON.parse(envelope.request);
  } catch {
    return reply.end(errorResponse(null, -32700, 'Parse error: the request is not valid JSON.'));
  }
  const id = idOf(request);
  const parameters = envelope.serviceParameters;
  const user = await authenticate({
    serviceParameters: parameters,
    request: envelope.request,
    jobId: delivery?.jobId,
  });
  if (!user) {
    return reply.end(
      errorResponse(
        id,
        -32600,
        'Unauthenticated: the authorization service parameter is missing or not valid.',
      ),
    );
  }
  const requestedVersion = parameters['a2a-version'] || '0.3';
  try {
    validateVersion(requestedVersion, card, BULLMQ_BINDING);
    inspectRequest?.(request);
  } catch (error) {
    return reply.end(mappedError(id, error, logger, envelope.requestId));
  }
  const extensions = (parameters['a2a-extensions'] ?? '')
    .split(',')
    .map((uri) => uri.trim())
    .filter(Boolean);
  // The service parameters are where the handler finds them over HTTP, as the SDK's default context
  // builder keeps the request headers (`Last-Event-ID` resuming a stream, for one).
  const state = new Map<string, unknown>([[STATE_HEADERS_KEY, { ...parameters }]]);
  const context = new ServerCallContext({ user, requestedVersion, requestedExtensions: extensions, state });
  if (delivery) setQueueDelivery(context, delivery);

  const out = await rpc.handle(request as Record<string, unknown>, context);
  if (!(Symbol.asyncIterator in out)) return reply.end(JSON.stringify(out));
  const stream = out[Symbol.asyncIterator]();
  let finished = false;
  try {
    while (true) {
      let step: IteratorResult<unknown, void>;
      try {
        step = await stream.next();
      } catch (error) {
        finished = true;
        // As the SDK's HTTP binding ends an SSE stream: with the JSON-RPC error, under the request's id.
        // A refusal said to the caller (task not found, a limit): one line, without a stack.
        if (error instanceof A2AError) {
          logger.warn(
            { reason: error.name, error: error.message.slice(0, 200), requestId: envelope.requestId },
            'stream ended with an error',
          );
        }
        return await reply.end(mappedError(id, error, logger, envelope.requestId));
      }
      if (step.done) {
        finished = true;
        return await reply.end();
      }
      await reply.item(JSON.stringify(step.value));
    }
  } finally {
    // A frame that could not be written stops the stream here, as a reader that goes away would.
    if (!finished) await stream.return?.(undefined);
  }
}
