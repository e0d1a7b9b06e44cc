import { randomUUID } from 'node:crypto';
import { AgentCard, type AgentInterface, Role, type SendMessageRequest } from '@a2a-js/sdk';
import { JsonRpcTransportFactory, RestTransportFactory, type Transport } from '@a2a-js/sdk/client';
import { fromV03 } from '../convert/from-v03.ts';
import { isObject, type JsonObject } from '../json/card-json.ts';
import type { CardKeys } from '../sign/card-keys.ts';
import { signatureCheck } from './signature-check.ts';

/** The outcome of one check of {@link verifyCard}. */
export interface VerifyCheck {
  /** What was checked: `card`, `signature`, `interface`, `auth`, `streaming`. */
  check: string;
  /** Which interface or URL it concerned. */
  target: string;
  status: 'passed' | 'failed' | 'skipped';
  detail: string;
}

/** Options of {@link verifyCard}. */
export interface VerifyCardOptions {
  /** The agent's base URL, or the URL of its card. */
  url: string;
  /** A bearer token to prove that declared auth accepts a valid caller. */
  token?: string;
  /** Send one short streaming message to prove declared streaming (default true). */
  send?: boolean;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  /**
   * A W3C `traceparent` sent with every request, so the agent's spans of the verification join one
   * trace the caller can open (e.g. in Jaeger).
   */
  traceparent?: string;
  /**
   * The keys the user trusts to sign cards (see `trustedCardKeys`): the `signature` check passes
   * only for a card one of them signed. Without them the check is skipped.
   */
  trustedKeys?: CardKeys;
  fetchImpl?: typeof fetch;
}

/** Everything {@link verifyCard} found; `ok` when no check failed. */
export interface CardVerification {
  cardUrl: string;
  card: JsonObject | undefined;
  checks: VerifyCheck[];
  ok: boolean;
}

const HTTP_BINDINGS = new Set(['JSONRPC', 'HTTP+JSON']);

function cardUrlOf(url: string): string {
  return /\.json($|\?)/.test(url) ? url : `${url.replace(/\/+$/, '')}/.well-known/agent-card.json`;
}

function describeError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return error instanceof Error ? `${error.message}${cause}` : String(error);
}

/**
 * Proves a card with real calls: the card can be fetched, each declared HTTP interface answers an
 * A2A request (GetTask of an unknown task must come back as TaskNotFound), declared auth refuses a
 * caller without credentials (and accepts `token`), and declared streaming streams. Declared is not
 * implemented until a call shows it; with `trustedKeys`, the card must be signed by one of them.
 * Never throws: every outcome is a check.
 */
export async function verifyCard({
  url,
  token,
  send = true,
  timeoutMs = 10_000,
  fetchImpl = fetch,
  traceparent,
  trustedKeys,
}: VerifyCardOptions): Promise<CardVerification> {
  const cardUrl = cardUrlOf(url);
  const checks: VerifyCheck[] = [];
  const done = (card?: JsonObject) => ({
    cardUrl,
    card,
    checks,
    ok: !checks.some((c) => c.status === 'failed'),
  });
  let raw: unknown;
  try {
    const response = await fetchImpl(cardUrl, {
      headers: { 'A2A-Version': '1.0', ...(traceparent ? { traceparent } : {}) },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`);
    raw = await response.json();
  } catch (error) {
    checks.push({
      check: 'card',
      target: cardUrl,
      status: 'failed',
      detail: `could not fetch the card: ${describeError(error)}`,
    });
    return done();
  }
  if (!isObject(raw)) {
    checks.push({
      check: 'card',
      target: cardUrl,
      status: 'failed',
      detail: 'the card is not a JSON object',
    });
    return done();
  }
  const json = fromV03(raw).card;
  const card = AgentCard.fromJSON(json);
  checks.push({
    check: 'card',
    target: cardUrl,
    status: 'passed',
    detail: `fetched "${card.name}" ${card.version}`,
  });
  // The v1.0 card as fetched: its signatures sign exactly that.
  checks.push(
    await signatureCheck({ card: raw, target: cardUrl, ...(trustedKeys ? { keys: trustedKeys } : {}) }),
  );

  /** The HTTP status of the last response each probe saw: a 401 or 403 means it was refused. */
  let lastStatus = 0;
  const probing =
    (bearer: string | undefined): typeof fetch =>
    async (input, init) => {
      const headers = new Headers(init?.headers);
      if (bearer) headers.set('Authorization', `Bearer ${bearer}`);
      if (traceparent) headers.set('traceparent', traceparent);
      const response = await fetchImpl(input, { ...init, headers });
      lastStatus = response.status;
      return response;
    };
  const transportFor = (entry: AgentInterface, bearer: string | undefined): Promise<Transport> => {
    const options = { fetchImpl: probing(bearer), legacyCompat: { enabled: true } };
    const factory =
      entry.protocolBinding === 'JSONRPC'
        ? new JsonRpcTransportFactory(options)
        : new RestTransportFactory(options);
    return factory.create(entry.url, { ...card, supportedInterfaces: [entry] });
  };
  const requiresAuth = card.securityRequirements.length > 0;
  const probe = async (
    entry: AgentInterface,
    bearer: string | undefined,
  ): Promise<'answered' | 'refused' | Error> => {
    lastStatus = 0;
    try {
      const transport = await transportFor(entry, bearer);
      await transport.getTask(
        { tenant: '', id: `switchboard-verify-${randomUUID()}` },
        {
          serviceParameters: { 'A2A-Version': entry.protocolVersion },
          signal: AbortSignal.timeout(timeoutMs),
        },
      );
      return new Error('GetTask of an unknown task did not fail; expected TaskNotFound');
    } catch (error) {
      if (lastStatus === 401 || lastStatus === 403) return 'refused';
      if (error instanceof Error && error.name === 'TaskNotFoundError') return 'answered';
      return error instanceof Error ? error : new Error(String(error));
    }
  };

  for (const entry of card.supportedInterfaces) {
    const target = `${entry.protocolBinding} ${entry.protocolVersion} ${entry.url}`;
    if (!HTTP_BINDINGS.has(entry.protocolBinding)) {
      checks.push({
        check: 'interface',
        target,
        status: 'skipped',
        detail: 'not an HTTP binding; it cannot be reached from here',
      });
      continue;
    }
    const outcome = await probe(entry, token);
    if (outcome === 'answered')
      checks.push({
        check: 'interface',
        target,
        status: 'passed',
        detail: 'answers A2A requests (TaskNotFound for an unknown task)',
      });
    else if (outcome === 'refused') {
      checks.push({
        check: 'interface',
        target,
        status: requiresAuth && !token ? 'skipped' : 'failed',
        detail:
          requiresAuth && !token
            ? 'refused without credentials; pass a token to check it answers'
            : 'refused the request (HTTP 401)',
      });
    } else checks.push({ check: 'interface', target, status: 'failed', detail: describeError(outcome) });

    if (requiresAuth) {
      const anonymous = await probe(entry, undefined);
      checks.push(
        anonymous === 'refused'
          ? { check: 'auth', target, status: 'passed', detail: 'refuses a caller without credentials' }
          : {
              check: 'auth',
              target,
              status: 'failed',
              detail: 'declares auth but answered a caller without credentials',
            },
      );
    }
  }

  const streamVia = card.supportedInterfaces.find(
    (entry) => entry.protocolBinding === 'JSONRPC' && entry.protocolVersion === '1.0',
  );
  if (card.capabilities?.streaming) {
    if (!send)
      checks.push({
        check: 'streaming',
        target: cardUrl,
        status: 'skipped',
        detail: 'not sending messages (--no-send)',
      });
    else if (!streamVia)
      checks.push({
        check: 'streaming',
        target: cardUrl,
        status: 'skipped',
        detail: 'no JSON-RPC 1.0 interface to stream over',
      });
    else if (requiresAuth && !token)
      checks.push({
        check: 'streaming',
        target: cardUrl,
        status: 'skipped',
        detail: 'auth required: pass a token',
      });
    else checks.push(await verifyStreaming(await transportFor(streamVia, token), streamVia, timeoutMs));
  }
  return done(json);
}

/**
 * The one message the streaming check sends. Built here from the SDK's types rather than with the
 * hosting package's builders, so checking a card never pulls in an agent runtime.
 */
function pingRequest(): SendMessageRequest {
  return {
    tenant: '',
    message: {
      messageId: randomUUID(),
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: 'text', value: 'ping (switchboard cards verify)' },
          mediaType: 'text/plain',
          filename: '',
          metadata: {},
        },
      ],
      contextId: '',
      taskId: '',
      metadata: {},
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: {},
  };
}

async function verifyStreaming(
  transport: Transport,
  entry: AgentInterface,
  timeoutMs: number,
): Promise<VerifyCheck> {
  const target = `${entry.protocolBinding} ${entry.url}`;
  const started = performance.now();
  let events = 0;
  let taskId = '';
  try {
    const stream = transport.sendMessageStream(pingRequest(), {
      serviceParameters: { 'A2A-Version': '1.0' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    for await (const event of stream) {
      events++;
      if (event.payload?.$case === 'task') taskId = event.payload.value.id;
      if (events >= 1) break;
    }
  } catch (error) {
    return {
      check: 'streaming',
      target,
      status: 'failed',
      detail: `declared streaming, but: ${describeError(error)}`,
    };
  }
  if (taskId)
    await transport
      .cancelTask({ tenant: '', id: taskId, metadata: {} }, { serviceParameters: { 'A2A-Version': '1.0' } })
      .catch(() => {});
  return events > 0
    ? {
        check: 'streaming',
        target,
        status: 'passed',
        detail: `streamed its first event in ${Math.round(performance.now() - started)} ms`,
      }
    : {
        check: 'streaming',
        target,
        status: 'failed',
        detail: 'declared streaming, but the stream ended without an event',
      };
}
