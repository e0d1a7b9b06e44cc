import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LEGACY_USER_KIND } from '@switchboard/agent';
import type { TeamAccess } from '@switchboard/team';
import { z } from 'zod';
import { CliError } from './errors.ts';

/** Identities as 0.3 names them: a 0.2 file's users (the older kind word) read as `user:`. */
const currentIdentities = (value: unknown): unknown =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? Object.fromEntries(
        Object.entries(value).map(([key, token]) => [
          key.startsWith(`${LEGACY_USER_KIND}:`) ? `user:${key.slice(LEGACY_USER_KIND.length + 1)}` : key,
          token,
        ]),
      )
    : value;

/** Where `switchboard dev` writes the local stack's settings, relative to the current directory. */
export const DEV_FILE = join('.switchboard', 'dev.json');

const HttpUrl = z
  .string()
  .regex(/^https?:\/\/\S+$/i, 'write an http(s) URL, e.g. http://127.0.0.1:8080')
  .transform((url) => url.replace(/\/+$/, ''));

/**
 * The settings of a local Switchboard stack, as `switchboard dev` writes them to `.switchboard/dev.json`
 * and every other command reads them when the environment does not set them.
 *
 * @example
 * { "supervisorUrl": "http://127.0.0.1:8080", "token": "dev-user-…", "adminToken": "dev-admin-…",
 *   "redisUrl": "redis://127.0.0.1:6379", "prefix": "switchboard-dev" }
 */
export const DevFile = z.object({
  /** The supervisor's base URL (`SWITCHBOARD_URL`). */
  supervisorUrl: HttpUrl,
  /** A user's bearer token for the supervisor's A2A routes (`SWITCHBOARD_TOKEN`). */
  token: z.string().min(1, 'give the user token'),
  /** An operator's bearer token for the supervisor's `/admin` routes (`SWITCHBOARD_ADMIN_TOKEN`). */
  adminToken: z.string().min(1, 'give the admin token'),
  /** The Redis the stack's queues and stores use. */
  redisUrl: z.string().regex(/^rediss?:\/\/\S+$/i, 'write a redis:// URL, e.g. redis://127.0.0.1:6379'),
  /** The key prefix of the stack's queues and stores in Redis. */
  prefix: z.string().min(1, 'give the Redis key prefix'),
  /**
   * The bearer tokens of every caller the local stack knows, by who they are (`user:traveller-1`,
   * `operator:operator`): what `--as` picks from, to act as another user or as an operator. A file
   * written by 0.2 names users with the older kind word; they read as `user:`.
   */
  identities: z
    .preprocess(
      currentIdentities,
      z.record(
        z.string().regex(/^(user|operator):\S+$/, 'write kind:id, e.g. user:traveller-1'),
        z.string().min(1),
      ),
    )
    .default({}),
});
export type DevFile = z.infer<typeof DevFile>;

/**
 * Reads `.switchboard/dev.json` under `cwd`: its settings, or undefined when there is no such file.
 * Throws `CliError` `INVALID_DEV_FILE` naming each wrong field when the file is not valid.
 */
export async function readDevFile({
  cwd = process.cwd(),
}: {
  cwd?: string;
} = {}): Promise<DevFile | undefined> {
  const path = join(cwd, DEV_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError('INVALID_DEV_FILE', {
      message: `Cannot read ${path}: ${String(error)}`,
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CliError('INVALID_DEV_FILE', {
      message: `${path} is not JSON. Run "switchboard dev" again to rewrite it, or delete it and set the SWITCHBOARD_* variables.`,
      cause: error,
    });
  }
  const parsed = DevFile.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`,
    );
    throw new CliError('INVALID_DEV_FILE', {
      message: `${path} is not valid: ${problems.join('; ')}. Run "switchboard dev" again to rewrite it, or delete it and set the SWITCHBOARD_* variables.`,
    });
  }
  return parsed.data;
}

/**
 * Writes `.switchboard/dev.json` under `cwd` (creating the folder), validated first, atomically
 * (a reader never sees half a file), readable by the owner only since it holds tokens.
 * Returns the file's path.
 */
export async function writeDevFile({ settings, cwd = process.cwd() }: { settings: DevFile; cwd?: string }) {
  const checked = DevFile.parse(settings);
  const path = join(cwd, DEV_FILE);
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(checked, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, path);
  return path;
}

/**
 * The settings of a local system as `.switchboard/dev.json` holds them: its URL, the default
 * user's and the operator's tokens, and every caller's token as an identity for `--as`.
 */
export function devSettings(access: TeamAccess): DevFile {
  return {
    supervisorUrl: access.supervisorUrl,
    token: access.token,
    adminToken: access.adminToken,
    redisUrl: access.redisUrl,
    prefix: access.namespace,
    identities: {
      ...Object.fromEntries(Object.entries(access.users).map(([id, token]) => [`user:${id}`, token])),
      'operator:operator': access.adminToken,
    },
  };
}
