import type { Client } from '@a2a-js/sdk/client';
import { identityToken, type ResolvedSetting, resolveSettings } from '../config.ts';
import { CliError } from '../errors.ts';
import { newTrace, type TraceContext } from '../trace-context.ts';
import { connectSupervisor } from './supervisor-client.ts';

/** A connected SDK client, the settings it used and the trace its requests carry. */
export interface SupervisorSession {
  client: Client;
  url: ResolvedSetting;
  trace: TraceContext;
}

/**
 * Resolves the URL and user token (flags over `SWITCHBOARD_URL` / `SWITCHBOARD_TOKEN` over
 * `.switchboard/dev.json`; `--as` picks another caller of the local stack) and connects to the
 * supervisor, in a new trace.
 */
export async function openSupervisorSession({
  url,
  token,
  as,
  env,
}: {
  /** The command's environment (`SWITCHBOARD_URL`, `SWITCHBOARD_TOKEN`). */
  env: NodeJS.ProcessEnv;
  url?: string | undefined;
  token?: string | undefined;
  /** `--as`: act as another caller of the local stack (`traveller-1`, `operator`). */
  as?: string | undefined;
}): Promise<SupervisorSession> {
  if (as && token) {
    throw new CliError('INVALID_SETTING', {
      message: 'Pass either --as (a caller of the local stack) or --token, not both.',
    });
  }
  const asToken = as ? await identityToken({ as }) : undefined;
  const chosen = asToken ?? token;
  const settings = await resolveSettings({
    need: ['url', 'token'],
    flags: {
      url: { value: url, flag: '--url' },
      token: { value: chosen, flag: as ? `--as ${as}` : '--token' },
    },
    env,
  });
  const trace = newTrace();
  const client = await connectSupervisor({ ...settings, traceparent: trace.traceparent });
  return { client, url: settings.url, trace };
}
