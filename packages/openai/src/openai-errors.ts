import { AgentError } from '@switchboard/agent';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  OpenAIError,
} from 'openai';

/** What an error message may say about the endpoint; `apiKey` is only used to redact it. */
export interface EndpointContext {
  /** The endpoint as shown in messages, from {@link describeEndpoint}. */
  endpoint: string;
  model: string;
  apiKey: string;
  timeoutMs: number | undefined;
}

/** The base URL without credentials, query or fragment, so it is safe to put in a message. */
export function describeEndpoint(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  } catch {
    return '(invalid base URL)';
  }
}

/**
 * Maps anything the `openai` client throws to an {@link AgentError}, keeping the original as `cause`.
 * Messages are ours and never carry the endpoint's text, which may echo credentials; that text goes,
 * redacted, to `details.endpointMessage`.
 */
export function toAgentError(error: unknown, context: EndpointContext, signal?: AbortSignal): AgentError {
  if (error instanceof AgentError) return error;
  const { endpoint } = context;
  if (error instanceof APIUserAbortError || signal?.aborted) {
    return new AgentError('ABORTED', { message: 'The model call was canceled.', cause: error });
  }
  if (error instanceof APIConnectionTimeoutError) {
    const limit = context.timeoutMs === undefined ? 'in time' : `within ${context.timeoutMs} ms`;
    return new AgentError('MODEL_UNAVAILABLE', {
      message: `The model endpoint at ${endpoint} did not answer ${limit}. Check that it is up, or raise timeoutMs.`,
      cause: error,
      details: { endpoint },
    });
  }
  if (error instanceof APIConnectionError) {
    return new AgentError('MODEL_UNAVAILABLE', {
      message: `The model endpoint at ${endpoint} could not be reached. Check that the server is running and that the base URL is right.`,
      cause: error,
      details: { endpoint },
    });
  }
  if (error instanceof APIError) return fromStatus(error, context);
  const details = { endpoint, endpointMessage: redact(messageOf(error), context.apiKey) };
  if (error instanceof OpenAIError || error instanceof SyntaxError) {
    return new AgentError('MODEL_BAD_RESPONSE', {
      message: `The model endpoint at ${endpoint} sent a response the client could not read.`,
      cause: error,
      details,
    });
  }
  return new AgentError('MODEL_UNAVAILABLE', {
    message: `The call to the model endpoint at ${endpoint} failed unexpectedly.`,
    cause: error,
    details,
  });
}

function fromStatus(error: APIError, { endpoint, model, apiKey }: EndpointContext): AgentError {
  const status = error.status;
  const details = {
    endpoint,
    status,
    endpointMessage: redact(error.message, apiKey),
    endpointCode: error.code ?? undefined,
    param: error.param ?? undefined,
    requestId: error.requestID ?? undefined,
  };
  const http = status === undefined ? 'in the stream' : `(HTTP ${status})`;
  const make = (code: ConstructorParameters<typeof AgentError>[0], message: string) =>
    new AgentError(code, { message, cause: error, details });
  if (status === 401) {
    return make(
      'MODEL_AUTH',
      `The model endpoint at ${endpoint} refused the API key ${http}. Check the API key setting.`,
    );
  }
  if (status === 403) {
    return make(
      'MODEL_AUTH',
      `The model endpoint at ${endpoint} denied access ${http}. Check that the API key may use model "${model}".`,
    );
  }
  if (status === 429) {
    return make(
      'MODEL_RATE_LIMITED',
      `The model endpoint at ${endpoint} is rate limiting requests ${http}. Retry later or lower the request rate.`,
    );
  }
  if (status === 404) {
    return make(
      'MODEL_BAD_REQUEST',
      `The model endpoint at ${endpoint} has no chat completions for model "${model}" ${http}. Check the base URL (it usually ends in /v1) and the model name.`,
    );
  }
  if (status !== undefined && status >= 400 && status < 500) {
    return make(
      'MODEL_BAD_REQUEST',
      `The model endpoint at ${endpoint} rejected the request ${http}. Its reason is in details.endpointMessage.`,
    );
  }
  return make('MODEL_UNAVAILABLE', `The model endpoint at ${endpoint} failed ${http}. Retry later.`);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function redact(text: string, secret: string): string {
  return secret ? text.split(secret).join('[redacted]') : text;
}
