import type { Principal } from '@switchboard/agent';

/**
 * What a caller presented with one request: the `Authorization` value (the HTTP header, or the
 * `authorization` service parameter of a queue job), and for a queue job the exact request text and
 * the job it came in, which a signed envelope is bound to.
 */
export interface PresentedCredentials {
  authorization: string | undefined;
  /** The request as sent (a queue job's JSON-RPC text); absent over HTTP. */
  body?: string;
  /** The queue job that carried it; absent over HTTP. */
  jobId?: string;
}

/**
 * Decides who a caller is: their principal, or undefined when what they presented is not a
 * credential this authenticator accepts (another one may). It never throws for a bad credential.
 */
export type Authenticator = (
  presented: PresentedCredentials,
) => Principal | undefined | Promise<Principal | undefined>;

/** The token of an `Authorization: Bearer <token>` value, or undefined when it is not one. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
}

/** An authenticator that asks each in turn and takes the first principal one of them finds. */
export function firstOf(authenticators: readonly Authenticator[]): Authenticator {
  return async (presented) => {
    for (const authenticate of authenticators) {
      const principal = await authenticate(presented);
      if (principal) return principal;
    }
    return undefined;
  };
}
