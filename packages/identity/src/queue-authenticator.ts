import { type Logger, stderrLogger } from '@switchboard/agent';
import type { Authenticator } from './authenticator.ts';
import { PrincipalUser } from './principal-user.ts';

/**
 * What a queued job presents to be authenticated: its service parameters (where the caller's
 * `authorization` rides), its exact request text and its job id. The shape of `QueuePresented` of
 * `@switchboard/a2a-bullmq`, written here so that identity needs no transport.
 */
export interface QueuedCredentials {
  serviceParameters: Readonly<Record<string, string>>;
  /** The request, byte for byte as the caller sent it: what a signed assertion is bound to. */
  request: string;
  /** How a redelivered job is told from a replayed one. */
  jobId: string | undefined;
}

/** Options of {@link queueAuthenticator}. */
export interface QueueAuthenticatorOptions {
  /** Who the credentials name (e.g. `firstOf([...])` of the host's authenticators). */
  authenticate: Authenticator;
  /** Where a refused job is logged, with why (default: warnings to stderr). */
  logger?: Logger;
}

/**
 * The authenticator of a queue: only services, and requests a service makes on someone's behalf,
 * are served over it; anyone else is refused (logged with the reason, never with the credentials).
 * The queue server's `authenticate` option takes it.
 *
 * @example
 * new A2aQueueServer({ ..., authenticate: queueAuthenticator({ authenticate: firstOf(authenticators) }) });
 */
export function queueAuthenticator({
  authenticate,
  logger = stderrLogger(),
}: QueueAuthenticatorOptions): (presented: QueuedCredentials) => Promise<PrincipalUser | undefined> {
  return async ({ serviceParameters, request, jobId }) => {
    const { authorization } = serviceParameters;
    const principal = await authenticate({ authorization, body: request, ...(jobId ? { jobId } : {}) });
    const fromService = principal?.kind === 'service' || (principal?.via.length ?? 0) > 0;
    if (principal && fromService) return new PrincipalUser(principal);
    logger.warn(
      {
        jobId,
        reason: !authorization
          ? 'no authorization'
          : principal
            ? 'not a service, nor a request a service relayed'
            : 'credentials not accepted',
      },
      'queued request refused: unauthenticated',
    );
    return undefined;
  };
}
