import { ClientCallContext, ClientCallContextKey, type RequestOptions } from '@a2a-js/sdk/client';
import { BULLMQ_BINDING, type ServiceParametersHook } from '@switchboard/a2a-bullmq';
import type { Principal } from '@switchboard/agent';
import type { ServiceSigner } from '@switchboard/identity';

/** Signs an assertion over one request's exact text; carried in a queued call's `RequestOptions.context`. */
const SIGN_REQUEST = new ClientCallContextKey<(request: string) => Promise<string>>(
  'switchboard.a2a.signRequest',
);

/** Options of {@link signedCallOptions}. */
export interface SignedCallOptions {
  signer: ServiceSigner;
  /** The agent called (its card's name): the assertion's `aud`. */
  audience: string;
  /** Whom the call is for (the end user); default: the signing service itself. */
  principal?: Principal | undefined;
  /** How long the assertion lives: the call's timeout (capped at 10 minutes). */
  lifetimeMs: number;
  /** The protocol binding of the client's transport (`client.transport.protocolName`). */
  protocol: string;
}

/**
 * The request options that authenticate one call as this service acting for `principal`, however
 * the call travels:
 * - over the BullMQ binding, a signer in the call's context, which {@link signQueuedRequests} (the
 *   `QueueTransportFactory`'s `serviceParameters` hook) uses to sign the exact request text, so the
 *   job carries an assertion bound to it and nothing reusable;
 * - over HTTP, whose SDK client gives no hook on the body, an assertion bound to the audience, a
 *   short expiry and a `jti` the receiver accepts once, as `Authorization: Bearer <jws>`.
 *
 * @example
 * const options = await signedCallOptions({ signer, audience: card.name, principal, lifetimeMs, protocol: client.transport.protocolName });
 * for await (const event of client.sendMessageStream(params, { ...options, signal })) read(event);
 */
export async function signedCallOptions({
  signer,
  audience,
  principal,
  lifetimeMs,
  protocol,
}: SignedCallOptions): Promise<Pick<RequestOptions, 'serviceParameters' | 'context'>> {
  if (protocol === BULLMQ_BINDING) {
    const sign = (request: string) => signer.sign({ audience, principal, request, lifetimeMs });
    return { serviceParameters: {}, context: ClientCallContext.create(SIGN_REQUEST.set(sign)) };
  }
  const assertion = await signer.sign({ audience, principal, lifetimeMs });
  return { serviceParameters: { Authorization: `Bearer ${assertion}` } };
}

/**
 * The `QueueTransportFactory` `serviceParameters` hook of a service that delegates: a call made with
 * {@link signedCallOptions} gets `authorization: Bearer <assertion>` signed over the exact request
 * text its job carries; any other call is sent as it is.
 *
 * @example
 * const queue = new QueueTransportFactory({ redis, serviceParameters: signQueuedRequests });
 */
export const signQueuedRequests: ServiceParametersHook = async ({ request, serviceParameters, context }) => {
  const sign = context ? SIGN_REQUEST.get(context) : undefined;
  if (!sign) return { ...serviceParameters };
  return { ...serviceParameters, authorization: `Bearer ${await sign(request)}` };
};
