import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRedisConnection, scanKeys } from '@switchboard/redis';
import { freePort, type GroupProcess, spawnGroup } from '@switchboard/test-processes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The packages as a project outside the repository gets them: `pnpm pack:all` builds and packs every
 * publishable package, an empty project in a temporary folder depends on the tarballs (and on the npm
 * `node` package for Node 24), plain `npm install` installs them with their dependencies from the
 * registry, and the project's scripts use them by name. Node strips no types under node_modules, so
 * this is what proves the tarballs are JavaScript that resolves. docs/packages.md says the same steps.
 */

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Kept between runs (outside the repository), so a second run downloads nothing. */
const NPM_CACHE = join(tmpdir(), 'switchboard-packaging-npm-cache');
const ROOT_DEV_DEPENDENCIES = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    devDependencies: Record<'node' | '@types/node', string>;
  }
).devDependencies;
/** The Node the project runs on: the npm `node` package, the version the workspace pins. */
const NODE_VERSION = ROOT_DEV_DEPENDENCIES.node;

/** Every entry point of every installed @switchboard package, by name (`@switchboard/host/http`). */
function installedEntryPoints(projectDir: string): string[] {
  const scope = join(projectDir, 'node_modules', '@switchboard');
  return readdirSync(scope)
    .sort()
    .flatMap((folder) => {
      const manifest = JSON.parse(readFileSync(join(scope, folder, 'package.json'), 'utf8')) as {
        name: string;
        exports?: Record<string, unknown>;
      };
      return Object.keys(manifest.exports ?? {}).map((subpath) => `${manifest.name}${subpath.slice(1)}`);
    });
}

/** Our environment without what pnpm and turbo set for npm (engine-strict, the workspace's own settings). */
function npmEnvironment(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(?:npm_|pnpm_|PNPM_|TURBO_|VITEST)/i.test(key)),
  );
  return { ...env, npm_config_cache: NPM_CACHE, npm_config_update_notifier: 'false' };
}

/** Runs a command to its end (stopped with its whole process group at the deadline); answers it. */
async function runToEnd(command: string, args: string[], cwd: string, timeoutMs: number) {
  const run = spawnGroup({ command, args, cwd, env: npmEnvironment(), name: `${command} ${args.join(' ')}` });
  running.add(run);
  try {
    const status = await run.waitForExit({ timeoutMs });
    return { status, stdout: run.stdout(), output: run.output() };
  } finally {
    running.delete(run);
  }
}

const running = new Set<GroupProcess>();
let work = '';
let project = '';
let packs = '';

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'switchboard-packaging-'));
  packs = join(work, 'packs');
  const pack = await runToEnd(
    process.execPath,
    [join(REPO_ROOT, 'scripts/pack-all.mjs'), packs],
    REPO_ROOT,
    120_000,
  );
  expect(pack.status, pack.output).toBe(0);
  const tarballs = pack.stdout.trim().split('\n');
  expect(tarballs.length).toBeGreaterThan(0);

  project = join(work, 'project');
  mkdirSync(project);
  // One `file:` dependency per tarball, and the same as an override, so that a tarball's own
  // `@switchboard/*` dependencies (real versions, as pnpm pack writes them) resolve to the tarballs too,
  // never to the registry.
  const ours = Object.fromEntries(
    tarballs.map((tarball) => {
      const name = basename(tarball).replace(/^switchboard-(.*)-\d+\.\d+\.\d+\.tgz$/, '@switchboard/$1');
      return [name, `file:${tarball}`];
    }),
  );
  const manifest = {
    name: 'outside-project',
    private: true,
    type: 'module',
    scripts: { smoke: 'node smoke.mjs', 'import-all': 'node import-all.mjs', help: 'switchboard --help' },
    dependencies: { ...ours, '@a2a-js/sdk': '1.3.0', zod: '4.6.7' },
    devDependencies: { node: NODE_VERSION, '@types/node': ROOT_DEV_DEPENDENCIES['@types/node'] },
    overrides: ours,
    // npm 11 runs a dependency's install script only when listed; the node package downloads Node in
    // its own, msgpackr-extract (bullmq's) its prebuilt binary. The workspace allows the same builds.
    allowScripts: { node: true, 'msgpackr-extract': true, protobufjs: false },
  };
  writeFileSync(join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const script of ['smoke.mjs', 'import-all.mjs'])
    copyFileSync(fileURLToPath(new URL(`./outside/${script}`, import.meta.url)), join(project, script));

  const install = await runToEnd(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline'],
    project,
    240_000,
  );
  expect(install.status, install.output).toBe(0);
});

afterAll(async () => {
  for (const run of running) await run.kill();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packages installed from their tarballs in a project outside the repository', () => {
  it('host an agent over HTTP on Node 24 that answers the SDK client with its tool', async () => {
    const smoke = await runToEnd('npm', ['run', '--silent', 'smoke'], project, 30_000);
    expect(smoke.status, smoke.output).toBe(0);
    const result = JSON.parse(smoke.stdout.trim()) as Record<string, unknown>;
    expect(result).toMatchObject({ node: `v${NODE_VERSION}`, service: 'function', team: 'function' });
    expect(result.answer).toContain('get_order (order id: A10086) → status: shipped, carrier: DHL');
  });

  it('load every entry point of every package by name', async () => {
    const run = await runToEnd('npm', ['run', '--silent', 'import-all'], project, 30_000);
    expect(run.status, run.output).toBe(0);
    const { loaded, failed } = JSON.parse(run.stdout.trim()) as { loaded: string[]; failed: unknown[] };
    expect(failed).toEqual([]);
    expect(loaded).toContain('@switchboard/host/http');
  });

  it('install the switchboard bin, which runs the built JavaScript', async () => {
    const help = await runToEnd('npm', ['run', '--silent', 'help'], project, 30_000);
    expect(help.status, help.output).toBe(0);
    expect(help.stdout).toContain('Usage: switchboard');
  });

  it("type-check, with the workspace's tsc, a TypeScript file that names every entry point", async () => {
    const entryPoints = installedEntryPoints(project);
    const source = entryPoints.map((specifier, index) => `export type * as m${index} from '${specifier}';`);
    writeFileSync(join(project, 'entry-points.ts'), `${source.join('\n')}\n`);
    // skipLibCheck off: the packages' declarations are checked too, against their installed dependencies.
    const compilerOptions = {
      module: 'nodenext',
      target: 'es2024',
      strict: true,
      noEmit: true,
      skipLibCheck: false,
    };
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { ...compilerOptions, types: ['node'] },
        files: ['entry-points.ts'],
      }),
    );
    const tsc = await runToEnd(join(REPO_ROOT, 'node_modules/.bin/tsc'), ['-p', project], project, 60_000);
    expect(tsc.output).toBe('');
    expect(tsc.status).toBe(0);
  });
});

describe('a team made by switchboard new team, on those tarballs, outside the repository', () => {
  let desk = '';
  let dev: GroupProcess | undefined;
  afterAll(async () => {
    await dev?.stop({ signal: 'SIGINT', graceMs: 20_000 });
  });

  it('installs with plain npm and passes its own test (an answer, an approval, once only)', async () => {
    desk = join(work, 'desk');
    const made = await runToEnd(
      process.execPath,
      [join(REPO_ROOT, 'packages/cli/bin/switchboard.mjs'), 'new', 'team', desk, '--packages', packs],
      work,
      30_000,
    );
    expect(made.status, made.output).toBe(0);
    const install = await runToEnd(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline'],
      desk,
      240_000,
    );
    expect(install.status, install.output).toBe(0);
    const test = await runToEnd('npm', ['test'], desk, 120_000);
    expect(test.status, test.output).toBe(0);
    expect(test.output).toMatch(/# pass 2\b|ℹ pass 2\b/);
  }, 400_000);

  it('runs with switchboard dev --team, one process per service, and answers and evaluates as its users', async () => {
    const namespace = `desk-${Date.now().toString(36)}`;
    const port = await freePort();
    // The installed bin itself (as npx runs it), so that Ctrl-C reaches switchboard dev, not npx.
    const bin = join(desk, 'node_modules', '.bin');
    dev = spawnGroup({
      command: join(bin, 'switchboard'),
      args: ['dev', '--team', '.', '--port', String(port), '--namespace', namespace],
      cwd: desk,
      env: { ...npmEnvironment(), PATH: `${bin}:${process.env.PATH ?? ''}` },
      name: 'switchboard dev --team .',
    });
    await dev.waitForLine(/Press Ctrl-C to stop\./, { timeoutMs: 90_000, describe: 'that the team runs' });
    expect(dev.output()).toContain('one process per service');
    expect(dev.output()).toMatch(/\[tickets *\] info +tickets ready/);
    const alice = await runToEnd('npx', ['switchboard', 'ask', 'Show my tickets.'], desk, 60_000);
    expect(alice.status, alice.output).toBe(0);
    expect(alice.stdout).toContain('T-1001');
    const bob = await runToEnd(
      'npx',
      ['switchboard', 'ask', '--as', 'bob', 'Show my tickets.'],
      desk,
      60_000,
    );
    expect(bob.stdout).toContain('T-2001');
    expect(bob.stdout).not.toContain('T-1001');
    const evals = await runToEnd('npx', ['switchboard', 'eval', '--team', '.'], desk, 120_000);
    expect(evals.status, evals.output).toBe(0);
    expect(evals.stdout).toContain('1 passed');
    expect(await dev.stop({ signal: 'SIGINT', graceMs: 20_000 })).toBe(0);
    dev = undefined;
    const redis = createRedisConnection({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
    for await (const keys of scanKeys(redis, `*${namespace}*`))
      await Promise.all(keys.map((key) => redis.unlink(key)));
    await redis.quit();
  }, 400_000);
});
