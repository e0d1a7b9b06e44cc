import type { ResolvedSetting } from '../config.ts';
import { CliError, rootMessage } from '../errors.ts';
import { activeTraceparent } from '../trace-context.ts';

/** Options of {@link supervisorFetch}. */
export interface SupervisorFetchOptions {
  /** The supervisor's base URL, for messages. */
  url: ResolvedSetting;
  /** The bearer token sent on every request. */
  token: ResolvedSetting;
  /** What the token is, for messages: "user token" or "admin token". */
  tokenLabel: string;
  /**
   * The W3C `traceparent` sent on every request, so the command's requests share one trace; when the
   * command records spans, the active span's is sent instead (an A2A call's CLIENT span).
   */
  traceparent: string;
  /** Default: the global `fetch`. */
  fetchImpl?: typeof fetch;
}

/**
 * A `fetch` for the supervisor's routes: sends `Authorization: Bearer <token>` and `traceparent`
 * on every request, and turns a connection failure into `CliError` `UNREACHABLE` (exit 1) and a
 * 401 into `UNAUTHORIZED` (exit 2), each naming the URL or the variable to set.
 */
export function supervisorFetch({
  url,
  token,
  tokenLabel,
  traceparent,
  fetchImpl = fetch,
}: SupervisorFetchOptions): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('Authorization', `Bearer ${token.value}`);
    headers.set('traceparent', activeTraceparent() ?? traceparent);
    let response: Response;
    try {
      response = await fetchImpl(input, { ...init, headers });
    } catch (error) {
      if (error instanceof Error && error.name === 'AbortError') throw error;
      throw new CliError('UNREACHABLE', {
        message: `Cannot reach the supervisor at ${url.value} (${rootMessage(error)}). Is it running? The URL comes from ${url.from}; set ${url.fix} to change it.`,
        cause: error,
      });
    }
    if (response.status === 401) {
      const said = await serverMessage(response);
      throw new CliError('UNAUTHORIZED', {
        message: `The supervisor at ${url.value} refused the ${tokenLabel} from ${token.from} (HTTP 401${said ? `: ${said}` : ''}). Set ${token.fix} to a valid ${tokenLabel}.`,
      });
    }
    return response;
  };
}

/** The message of an error body: `{ error: { message } }` (admin API, JSON-RPC, REST) or `{ message }`. */
export async function serverMessage(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.clone().json()) as { error?: { message?: unknown }; message?: unknown };
    const message = body?.error?.message ?? body?.message;
    return typeof message === 'string' && message ? message : undefined;
  } catch {
    return undefined;
  }
}
