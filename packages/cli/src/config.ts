import { LEGACY_USER_KIND } from '@switchboard/agent';
import { DEV_FILE, type DevFile, readDevFile } from './dev-file.ts';
import { CliError } from './errors.ts';

/** Settings of the `switchboard` command that come from the environment. */
export interface CliConfig {
  /** Where services write spans when no collector is configured (`SWITCHBOARD_SPAN_FILE`). */
  spanFile: string;
  /** Jaeger's query API / UI base URL, e.g. http://localhost:16686 (`SWITCHBOARD_JAEGER_URL`). */
  jaegerUrl: string | undefined;
  /** The Redis of `dev` and `seed` (`REDIS_URL`). */
  redisUrl: string | undefined;
  /** The Redis key namespace of `dev` and `seed` (`SWITCHBOARD_NAMESPACE`). */
  namespace: string | undefined;
  /**
   * Where the command exports its own spans, an OTLP/HTTP base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`).
   * Unset: it starts no OpenTelemetry SDK and exports nothing.
   */
  otlpEndpoint: string | undefined;
  /** `deployment.environment.name` of those spans (`NODE_ENV`, default `development`). */
  environment: string;
  /**
   * The whole environment, for what the command starts or builds from it: the services of `dev`
   * (which read their own settings) and the models of `eval` (`OPENAI_API_KEY`, ...).
   */
  env: NodeJS.ProcessEnv;
}

/** Reads the command's settings from `env` (the process's environment, passed in by the bin), with the embedded defaults. */
export function loadCliConfig(env: NodeJS.ProcessEnv): CliConfig {
  return {
    spanFile: env.SWITCHBOARD_SPAN_FILE || '.switchboard/spans.jsonl',
    jaegerUrl: env.SWITCHBOARD_JAEGER_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    namespace: env.SWITCHBOARD_NAMESPACE || undefined,
    otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || undefined,
    environment: env.NODE_ENV?.trim() || 'development',
    env,
  };
}

/**
 * The settings of the commands that talk to a running supervisor: the variable that sets each, and
 * its field in `.switchboard/dev.json`, read when the variable is unset.
 */
export const SUPERVISOR_SETTINGS = {
  url: { variable: 'SWITCHBOARD_URL', field: 'supervisorUrl', what: 'the supervisor’s base URL' },
  token: { variable: 'SWITCHBOARD_TOKEN', field: 'token', what: 'a user’s bearer token' },
  adminToken: { variable: 'SWITCHBOARD_ADMIN_TOKEN', field: 'adminToken', what: 'an operator’s admin token' },
} as const satisfies Record<string, { variable: string; field: keyof DevFile; what: string }>;

/** A name from {@link SUPERVISOR_SETTINGS}. */
export type SupervisorSetting = keyof typeof SUPERVISOR_SETTINGS;

/** A setting's value and where it came from (`--token`, `SWITCHBOARD_TOKEN`, `.switchboard/dev.json`), for messages. */
export interface ResolvedSetting {
  value: string;
  from: string;
  /** What to set to change it, e.g. `SWITCHBOARD_TOKEN (or pass --token)`. */
  fix: string;
}

/** Options of {@link resolveSettings}. */
export interface ResolveSettingsOptions<K extends SupervisorSetting> {
  /** The settings the command needs; a missing one is an error naming its variable. */
  need: readonly K[];
  /** Values given on the command line, with the flag that gave them; they win over everything. */
  flags?: Partial<Record<SupervisorSetting, { value: string | undefined; flag: string }>>;
  /** The environment the variables are read from (the command's `CliConfig.env`). */
  env: NodeJS.ProcessEnv;
  /** Where `.switchboard/dev.json` is looked for (default: the current directory). */
  cwd?: string;
}

/**
 * Resolves the settings a command needs: a flag wins, then the environment variable, then
 * `.switchboard/dev.json` (read only when something is still missing). Throws `CliError`
 * (`MISSING_SETTING`, `INVALID_SETTING`, `INVALID_DEV_FILE`: exit 2) naming what to set.
 *
 * @example
 * const { url, token } = await resolveSettings({ need: ['url', 'token'], flags: { url: { value: options.url, flag: '--url' } }, env });
 */
export async function resolveSettings<K extends SupervisorSetting>({
  need,
  flags = {},
  env,
  cwd = process.cwd(),
}: ResolveSettingsOptions<K>): Promise<Record<K, ResolvedSetting>> {
  const resolved = {} as Record<K, ResolvedSetting>;
  const fixOf = (name: SupervisorSetting) => {
    const flag = flags[name]?.flag;
    return `${SUPERVISOR_SETTINGS[name].variable}${flag ? ` (or pass ${flag})` : ''}`;
  };
  const missing: K[] = [];
  for (const name of need) {
    const { variable } = SUPERVISOR_SETTINGS[name];
    const flag = flags[name];
    if (flag?.value) resolved[name] = { value: flag.value, from: flag.flag, fix: fixOf(name) };
    else if (env[variable]) resolved[name] = { value: env[variable], from: variable, fix: fixOf(name) };
    else missing.push(name);
  }
  if (missing.length > 0) {
    const file = await readDevFile({ cwd });
    if (!file) {
      const list = missing.map((name) => `${fixOf(name)} to ${SUPERVISOR_SETTINGS[name].what}`);
      throw new CliError('MISSING_SETTING', {
        message: `Set ${list.join(', and ')}. When unset, ${missing.length === 1 ? 'it is' : 'they are'} read from ${DEV_FILE} (written by "switchboard dev"), and there is none in ${cwd}.`,
      });
    }
    for (const name of missing) {
      resolved[name] = { value: file[SUPERVISOR_SETTINGS[name].field], from: DEV_FILE, fix: fixOf(name) };
    }
  }
  const url = (resolved as Partial<Record<SupervisorSetting, ResolvedSetting>>).url;
  if (url) {
    if (!/^https?:\/\/\S+$/i.test(url.value)) {
      throw new CliError('INVALID_SETTING', {
        message: `"${url.value}" (from ${url.from}) is not an http(s) URL; set ${url.fix} to the supervisor’s base URL, e.g. http://127.0.0.1:8080`,
      });
    }
    url.value = url.value.replace(/\/+$/, '');
  }
  return resolved;
}

/**
 * The token of the caller `--as` names, from `.switchboard/dev.json` (the local stack's
 * identities): `traveller-1` or `user:traveller-1` for a user, `operator` or `operator:<name>` for an
 * operator. Throws `CliError` `INVALID_SETTING` naming the identities there are.
 *
 * @example
 * const token = await identityToken({ as: 'traveller-1' }); // then send it as the bearer token
 */
export async function identityToken({
  as,
  cwd = process.cwd(),
}: {
  as: string;
  cwd?: string;
}): Promise<string> {
  const file = await readDevFile({ cwd });
  if (!file) {
    throw new CliError('MISSING_SETTING', {
      message: `--as picks a caller of the local stack from ${DEV_FILE}, written by "switchboard dev", and there is none in ${cwd}. Against another deployment, pass that caller's --token.`,
    });
  }
  // `--as` in the 0.2 words for a user (the older kind word before the colon) still picks that user.
  const typed = as.trim();
  const wanted = typed.startsWith(`${LEGACY_USER_KIND}:`)
    ? `user:${typed.slice(LEGACY_USER_KIND.length + 1)}`
    : typed;
  const key = wanted.includes(':') ? wanted : wanted === 'operator' ? undefined : `user:${wanted}`;
  const match = Object.keys(file.identities).find((identity) =>
    key ? identity.toLowerCase() === key.toLowerCase() : identity.startsWith('operator:'),
  );
  if (!match) {
    const known = Object.keys(file.identities).join(', ') || 'none';
    throw new CliError('INVALID_SETTING', {
      message: `--as ${as}: the local stack has no such caller. Pick one of: ${known} (a user id alone, e.g. --as traveller-1, or --as operator).`,
    });
  }
  return file.identities[match] as string;
}
