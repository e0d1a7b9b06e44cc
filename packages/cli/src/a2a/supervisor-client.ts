import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { A2AError } from '@a2a-js/sdk/errors';
import { tracedTransportFactory } from '@switchboard/delegate/observe';
import type { ResolvedSetting } from '../config.ts';
import { CliError } from '../errors.ts';
import { supervisorFetch } from '../io/supervisor-fetch.ts';

/** Options of {@link connectSupervisor}. */
export interface ConnectSupervisorOptions {
  url: ResolvedSetting;
  /** The user's bearer token (`SWITCHBOARD_TOKEN`). */
  token: ResolvedSetting;
  /** Sent on every request, the card fetch included. */
  traceparent: string;
  /** Default: the global `fetch`. */
  fetchImpl?: typeof fetch;
}

/**
 * An A2A SDK client for the supervisor, created from its card at `{url}/.well-known/agent-card.json`
 * (JSON-RPC or HTTP+JSON, as the card prefers). Every request carries the token and `traceparent`;
 * each A2A call is a CLIENT span when the command records spans.
 * Throws `CliError` when the supervisor is unreachable, refuses the token or serves no card.
 */
export async function connectSupervisor({
  url,
  token,
  traceparent,
  fetchImpl = fetch,
}: ConnectSupervisorOptions): Promise<Client> {
  const send = supervisorFetch({ url, token, tokenLabel: 'user token', traceparent, fetchImpl });
  const factory = new ClientFactory({
    // Each A2A call is a CLIENT span (a no-op unless the command exports spans).
    transports: [
      tracedTransportFactory({ factory: new JsonRpcTransportFactory({ fetchImpl: send }) }),
      tracedTransportFactory({ factory: new RestTransportFactory({ fetchImpl: send }) }),
    ],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl: send }),
  });
  try {
    return await factory.createFromUrl(url.value);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError('NOT_AN_AGENT', {
      message: `No A2A agent answers at ${url.value} (${error instanceof Error ? error.message : String(error)}). Set ${url.fix} to the supervisor’s base URL, the one that serves /.well-known/agent-card.json.`,
      cause: error,
    });
  }
}

/**
 * Says what an error of an A2A call means for the user: a `CliError` passes through; the SDK's
 * task errors become `TASK_NOT_FOUND` / `TASK_NOT_CANCELABLE`; other protocol errors `REFUSED`.
 */
export function explainA2aError({ error, taskId }: { error: unknown; taskId?: string }): unknown {
  if (error instanceof CliError || !(error instanceof A2AError)) return error;
  if (error.reason === 'TASK_NOT_FOUND') {
    return new CliError('TASK_NOT_FOUND', {
      message: `The supervisor has no task ${taskId ?? ''} you can see: check the id (it is printed by "switchboard ask"), or it may have expired.`,
      cause: error,
    });
  }
  if (error.reason === 'TASK_NOT_CANCELABLE') {
    return new CliError('TASK_NOT_CANCELABLE', {
      message: `Task ${taskId ?? ''} cannot be canceled: it has already finished.`,
      cause: error,
    });
  }
  return new CliError('REFUSED', {
    message: `The supervisor refused the request: ${error.message}`,
    cause: error,
  });
}
