import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { InProcessTeam, Team, TeamInProcessOptions, TeamService } from '@switchboard/team';
import { CliError } from '../errors.ts';

/** This checkout's root: the CLI's own repository (`packages/cli/src/team` → four folders up). */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Where an example's team module sits in a checkout: `examples/<example>/team/src/team.ts`. */
const EXAMPLE_TEAM = join('team', 'src', 'team.ts');

/** The team module of the first example (by name) in the checkout at `root`, relative to it. */
function exampleTeamIn(root: string): string | undefined {
  const examples = join(root, 'examples');
  if (!existsSync(examples)) return undefined;
  return readdirSync(examples)
    .sort()
    .map((example) => join('examples', example, EXAMPLE_TEAM))
    .find((module) => existsSync(join(root, module)));
}

/**
 * Where the bundled example's team module sits in a checkout of this repository (the CLI names no
 * example: it is whichever `examples/<example>/team/src/team.ts` there is).
 */
export const BUNDLED_TEAM = exampleTeamIn(REPO_ROOT) ?? join('examples', '<example>', EXAMPLE_TEAM);

/** Options of {@link loadTeam}. */
export interface LoadTeamOptions {
  /**
   * `--team`: a team module (a `.ts` or `.js` file whose default export is a `Team`), or a folder
   * holding one as `team.ts`, `src/team.ts` or `team/src/team.ts`. Default: the team in `cwd` (its `team.ts` or `src/team.ts`), else the bundled example's,
   * found from `cwd` upwards, else in this CLI's checkout.
   */
  team?: string | undefined;
  /** Where a relative `team` and the search for the bundled one start (default: the current directory). */
  cwd?: string;
}

/** A team, and the module it was loaded from. */
export interface LoadedTeam {
  team: Team;
  module: string;
}

const CANDIDATES = ['team.ts', join('src', 'team.ts'), join('team', 'src', 'team.ts')];

/** The team module a path names: the file itself, or the first candidate in the folder. */
function moduleAt(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  if (statSync(path).isFile()) return path;
  return CANDIDATES.map((candidate) => join(path, candidate)).find((file) => existsSync(file));
}

/** The bundled example's team module, in `from` or a folder above it. */
function bundledFrom(from: string): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const found = exampleTeamIn(dir);
    if (found) return join(dir, found);
    if (dirname(dir) === dir) return undefined;
  }
}

const looksLikeTeam = (value: unknown): value is Team => {
  const team = value as Partial<Team> | undefined;
  return (
    typeof team === 'object' &&
    team !== null &&
    Array.isArray(team.workers) &&
    typeof team.supervisor?.name === 'string' &&
    typeof team.users === 'object'
  );
};

/**
 * Loads the team a command runs, at run time (`import()` of its module): the CLI depends on no team.
 * Throws `CliError` `NO_TEAM` saying what to pass when there is none, or when the module's default
 * export is not a team.
 */
export async function loadTeam({ team, cwd = process.cwd() }: LoadTeamOptions = {}): Promise<LoadedTeam> {
  const module =
    team === undefined
      ? (moduleAt(cwd) ?? bundledFrom(cwd) ?? bundledFrom(REPO_ROOT))
      : moduleAt(resolve(cwd, team));
  if (!module) {
    throw new CliError('NO_TEAM', {
      message:
        team === undefined
          ? `No team to run: there is no ${BUNDLED_TEAM} in ${cwd} or a folder above it. Pass --team <dir-or-module>: a team module (its default export is defineTeam({...}) of @switchboard/team), or the folder that holds it as team.ts or src/team.ts.`
          : `No team at ${team}: pass a team module (a .ts file whose default export is defineTeam({...}) of @switchboard/team), or the folder that holds it as team.ts or src/team.ts.`,
    });
  }
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(module).href)) as { default?: unknown };
  } catch (error) {
    throw new CliError('NO_TEAM', {
      message: `The team module ${relative(cwd, module) || module} failed to load: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
  if (!looksLikeTeam(loaded.default)) {
    throw new CliError('NO_TEAM', {
      message: `${relative(cwd, module) || module} is not a team module: its default export must be defineTeam({ supervisor, workers, users }) of @switchboard/team.`,
    });
  }
  return { team: loaded.default, module };
}

/** The platform's runner of teams, `@switchboard/service`, as the team's own project resolves it. */
function resolveFromTeam(module: string, specifier: string): string {
  try {
    return createRequire(module).resolve(specifier);
  } catch (error) {
    throw new CliError('NO_TEAM', {
      message: `The team at ${module} needs ${specifier} to run its services: install it in the team's project (npm install ${specifier}).`,
      cause: error,
    });
  }
}

/** The `switchboard` bin of this package, from `src/` or `dist/src/` (the launcher runs `serve` with it). */
const BIN = [
  new URL('../../bin/switchboard.mjs', import.meta.url),
  new URL('../../../bin/switchboard.mjs', import.meta.url),
]
  .map((url) => fileURLToPath(url))
  .find((file) => existsSync(file)) as string;

/**
 * What a launcher runs for one service of a team: its own main (`entry`), else `switchboard serve
 * <service> --team <module>`, which serves the team's definition of it.
 */
export function serviceLaunch(
  service: TeamService,
  module: string | undefined,
): { entry: string; args: string[] } {
  if (service.entry) return { entry: service.entry, args: [] };
  if (!module)
    throw new CliError('NO_TEAM', {
      message: `The service ${service.name} has no main of its own (entry): pass the team's module (teamModule) so that "switchboard serve" can serve it.`,
    });
  return { entry: BIN, args: ['serve', service.name, '--team', module] };
}

/**
 * Serves one service of a team in this process (`switchboard serve`): `serveTeamService` of
 * `@switchboard/service`, resolved from the team's own project, with the settings in `env`.
 * Resolves once the service serves; a wrong setting ends the process (exit 2), naming it.
 */
export async function serveService(
  { team, module }: LoadedTeam,
  service: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const runner = (await import(pathToFileURL(resolveFromTeam(module, '@switchboard/service')).href)) as {
    serveTeamService: (options: { team: Team; service: string; env: NodeJS.ProcessEnv }) => Promise<void>;
  };
  await runner.serveTeamService({ team, service, env });
}

/**
 * Starts a team in this process: its own way (`startInProcess`), else the platform's
 * (`startTeamInProcess` of `@switchboard/service`, resolved from the team's project).
 */
export async function startInProcess(
  team: Team,
  module: string | undefined,
  options: TeamInProcessOptions,
): Promise<InProcessTeam> {
  if (team.startInProcess) return team.startInProcess(options);
  if (!module)
    throw new CliError('NO_TEAM', {
      message: `The ${team.title} has no startInProcess of its own: pass the team's module so the platform can run it in one process.`,
    });
  const runner = (await import(pathToFileURL(resolveFromTeam(module, '@switchboard/service')).href)) as {
    startTeamInProcess: (team: Team, options: TeamInProcessOptions) => Promise<InProcessTeam>;
  };
  return runner.startTeamInProcess(team, options);
}
