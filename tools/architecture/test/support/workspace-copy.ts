import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The folders of the workspace that the lint step's checks read, and the root files they need. */
const TREES = ['packages', 'apps', 'examples', 'bench', 'e2e', 'infra', 'interop', 'tools'];
const ROOT_FILES = [
  'package.json',
  'pnpm-workspace.yaml',
  '.dependency-cruiser.mjs',
  '.dependency-cruiser-known-violations.json',
  '.jscpd.json',
];
/** Built, cached or generated: never read by the check. */
const SKIPPED = new Set(['dist', '.turbo', 'coverage', '.switchboard']);

/** What the dependency check printed and how it exited. */
export interface CheckRun {
  status: number | null;
  /** What it wrote to stdout. */
  stdout: string;
  /** stdout and stderr, as a terminal shows them. */
  output: string;
}

/** The root package.json's scripts: the lint step as `pnpm run lint` runs it. */
export function rootScripts(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return manifest.scripts;
}

/** Runs the lint step's dependency check (`lint:deps`, through a shell, as pnpm would) in `cwd`. */
export function runDependencyCheck(cwd: string, extraArguments = ''): CheckRun {
  return runRootScript('lint:deps', cwd, extraArguments);
}

/** Runs one of the root package.json's scripts through a shell, as pnpm would, in `cwd`. */
export function runRootScript(script: string, cwd: string, extraArguments = ''): CheckRun {
  const command = rootScripts()[script];
  if (!command) throw new Error(`package.json has no ${script} script`);
  const result = spawnSync('sh', ['-c', `${command} ${extraArguments}`], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, PATH: `${join(REPO_ROOT, 'node_modules/.bin')}:${process.env.PATH ?? ''}` },
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, output: `${result.stdout}${result.stderr}` };
}

/**
 * A copy of the workspace's sources in a temporary folder, to plant wrong imports in without touching the
 * real tree. The packages' node_modules are copied as the symlinks they are, and the root node_modules is a
 * symlink to the real one, so imports resolve in the copy as they do in the repository.
 */
export class WorkspaceCopy {
  readonly root = mkdtempSync(join(tmpdir(), 'switchboard-architecture-'));

  constructor() {
    for (const tree of TREES.filter((name) => existsSync(join(REPO_ROOT, name))))
      cpSync(join(REPO_ROOT, tree), join(this.root, tree), {
        recursive: true,
        verbatimSymlinks: true,
        filter: (source) => !SKIPPED.has(basename(source)),
      });
    for (const file of ROOT_FILES) cpSync(join(REPO_ROOT, file), join(this.root, file));
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(this.root, 'node_modules'));
  }

  /** Writes a file (a path from the workspace root), creating its folder. */
  write(path: string, text: string): void {
    mkdirSync(dirname(join(this.root, path)), { recursive: true });
    writeFileSync(join(this.root, path), text);
  }

  /**
   * Lists a workspace package in another's package.json (`dependencies` or `devDependencies`) and links
   * it into that package's node_modules, as `pnpm install` would.
   */
  addWorkspaceDependency(
    packageDir: string,
    dependencyDir: string,
    field: 'dependencies' | 'devDependencies' = 'dependencies',
  ): void {
    const manifestPath = join(this.root, packageDir, 'package.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
    const name = (
      JSON.parse(readFileSync(join(this.root, dependencyDir, 'package.json'), 'utf8')) as { name: string }
    ).name;
    manifest[field] = { ...(manifest[field] as Record<string, string> | undefined), [name]: 'workspace:*' };
    writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
    const link = join(this.root, packageDir, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    rmSync(link, { force: true });
    symlinkSync(relative(dirname(link), join(this.root, dependencyDir)), link);
  }

  /** Runs the lint step's dependency check on the copy. */
  check(): CheckRun {
    return runDependencyCheck(this.root);
  }

  /** Runs the lint step's clone check (`lint:clones`) on the copy. */
  checkClones(): CheckRun {
    return runRootScript('lint:clones', this.root);
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
