import type { Client } from '@a2a-js/sdk/client';
import { type ResolvedSetting, resolveSettings } from '../config.ts';
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
 * `.switchboard/dev.json`) and connects to the supervisor, in a new trace.
 */
export async function openSupervisorSession({
  url,
  token,
}: {
  url?: string | undefined;
  token?: string | undefined;
}): Promise<SupervisorSession> {
  const settings = await resolveSettings({
    need: ['url', 'token'],
    flags: { url: { value: url, flag: '--url' }, token: { value: token, flag: '--token' } },
  });
  const trace = newTrace();
  const client = await connectSupervisor({ ...settings, traceparent: trace.traceparent });
  return { client, url: settings.url, trace };
}
