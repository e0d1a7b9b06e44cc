import { ConfigError } from '@switchboard/config';
import { PEER_CARD_POLICIES, type PeerCardPolicy } from '@switchboard/delegate';
import { z } from 'zod';
import { loadServiceConfig, type ServiceConfig } from '../config/service-config.ts';

/** The supervisor's configuration: the common service settings plus the workers it waits for. */
export interface SupervisorConfig extends ServiceConfig {
  /** Worker agents to find in the registry before serving (`SWITCHBOARD_WORKERS`). */
  workers: string[];
  /** How long startup waits for them (`SWITCHBOARD_DISCOVERY_TIMEOUT_MS`, default 30 000). */
  discoveryTimeoutMs: number;
  /**
   * What a worker's card must carry (`SWITCHBOARD_PEER_CARDS`, default `any`): `signed` refuses a
   * card not signed by its service's key in `SWITCHBOARD_TRUSTED_KEYS`; `any` accepts it with a warning.
   */
  peerCards: PeerCardPolicy;
}

const Workers = z
  .string()
  .trim()
  .regex(
    /^[a-z][a-z0-9_-]*(\s*,\s*[a-z][a-z0-9_-]*)*$/,
    'must be agent names separated by commas, e.g. "flights,weather"',
  );
const Timeout = z.coerce.number({ error: 'must be a number of milliseconds' }).int().positive();

/** What {@link loadSupervisorConfig} knows from code: the defaults the environment may override. */
export interface SupervisorConfigDefaults {
  /** The supervisor's service name (default `supervisor`). */
  service?: string;
  /** Its HTTP port when `PORT` is not set (default 4100). */
  defaultPort?: number;
  /** The workers it delegates to when `SWITCHBOARD_WORKERS` is not set (a team's worker names). */
  workers?: readonly string[];
}

/** Reads the supervisor's environment; throws `ConfigError` naming each wrong variable. */
export function loadSupervisorConfig(
  env: NodeJS.ProcessEnv,
  { service = 'supervisor', defaultPort = 4100, workers: knownWorkers = [] }: SupervisorConfigDefaults = {},
): SupervisorConfig {
  const problems: { variable: string; message: string }[] = [];
  let base: ServiceConfig | undefined;
  try {
    base = loadServiceConfig({ env, service, defaultPort, public: true });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  const workers = Workers.safeParse(env.SWITCHBOARD_WORKERS?.trim() || knownWorkers.join(','));
  if (!workers.success)
    problems.push({
      variable: 'SWITCHBOARD_WORKERS',
      message:
        knownWorkers.length === 0 && !env.SWITCHBOARD_WORKERS?.trim()
          ? 'is required: the workers this supervisor delegates to, as agent names separated by commas (e.g. "flights,weather"), or pass them in code (runSupervisorService({ workers }))'
          : (workers.error.issues[0]?.message ?? 'is not valid'),
    });
  const timeout = Timeout.safeParse(env.SWITCHBOARD_DISCOVERY_TIMEOUT_MS?.trim() || 30_000);
  if (!timeout.success)
    problems.push({
      variable: 'SWITCHBOARD_DISCOVERY_TIMEOUT_MS',
      message: 'must be a positive whole number of milliseconds',
    });
  const peerCards = env.SWITCHBOARD_PEER_CARDS?.trim() || 'any';
  if (!(PEER_CARD_POLICIES as readonly string[]).includes(peerCards))
    problems.push({
      variable: 'SWITCHBOARD_PEER_CARDS',
      message: `must be any (accept a worker's unsigned or wrongly signed card, with a warning) or signed (refuse it), not "${peerCards}"`,
    });
  if (!base || !workers.success || !timeout.success || problems.length > 0)
    throw new ConfigError(service, problems);
  return {
    ...base,
    workers: workers.data.split(',').map((name) => name.trim()),
    discoveryTimeoutMs: timeout.data,
    peerCards: peerCards as PeerCardPolicy,
  };
}
