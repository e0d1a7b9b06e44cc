import { existsSync, readdirSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT, type Output } from '../io/output.ts';

/** The scaffold's files: this package's `templates/team` (shipped with it), from `src/` or `dist/src/`. */
const TEMPLATE = [
  new URL('../../templates/team/', import.meta.url),
  new URL('../../../templates/team/', import.meta.url),
]
  .map((url) => fileURLToPath(url))
  .find((dir) => existsSync(dir)) as string;

/** The packages a new team depends on: what its code imports, and the CLI to run it. */
const DEPENDENCIES = [
  '@switchboard/agent',
  '@switchboard/delegate',
  '@switchboard/service',
  '@switchboard/team',
];
const DEV_DEPENDENCIES = ['@switchboard/cli'];
/** The Node.js the team runs on, as an npm package: `npm test` and `npx` put it first on the PATH. */
const NODE = '24.21.0';
const ZOD = '4.6.7';

/** Options of {@link newTeamCommand}. */
export interface NewTeamOptions {
  /** Where the team goes: a folder that does not exist yet, or an empty one. */
  dir: string;
  /**
   * `--packages`: a folder of packed `@switchboard/*` tarballs (`pnpm pack:all <dir>` in a checkout),
   * until the packages are published: the team depends on those files. Default: the registry.
   */
  packages?: string | undefined;
  /** The version of the `@switchboard/*` packages from the registry (default: this CLI's). */
  version: string;
  cwd?: string;
  output: Output;
}

/** The package name a folder makes: lower-case, `-` for anything npm does not take. */
const packageName = (dir: string) =>
  basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '') || 'my-team';

/** `@switchboard/<name>` → its tarball in `dir` (`switchboard-<name>-<version>.tgz`), by package name. */
function tarballs(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of readdirSync(dir)) {
    const match = /^switchboard-(.+)-\d+\.\d+\.\d+(?:-[\w.]+)?\.tgz$/.exec(file);
    if (match) found.set(`@switchboard/${match[1]}`, `file:${join(dir, file)}`);
  }
  return found;
}

/** The scaffold's files, relative to the template folder. */
async function templateFiles(dir = TEMPLATE, prefix = ''): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory()
        ? templateFiles(join(dir, entry.name), join(prefix, entry.name))
        : Promise.resolve([join(prefix, entry.name)]),
    ),
  );
  return nested.flat();
}

/**
 * `switchboard new team <dir>`: writes a runnable team outside any checkout (a supervisor, a worker
 * with a read and a dangerous tool, a test of the team in one process, an eval case, a README) and
 * says what to run next. Refuses a folder that is not empty (exit 2), and writes nothing then.
 */
export async function newTeamCommand({
  dir,
  packages,
  version,
  cwd = process.cwd(),
  output,
}: NewTeamOptions): Promise<number> {
  const target = resolve(cwd, dir);
  if (existsSync(target) && readdirSync(target).length > 0) {
    output.err(`${dir} is not empty: give a new folder (switchboard new team <dir>); nothing was written.`);
    return EXIT.usage;
  }
  let specs: Map<string, string> | undefined;
  if (packages !== undefined) {
    const from = resolve(cwd, packages);
    specs = existsSync(from) ? tarballs(from) : new Map();
    const missing = [...DEPENDENCIES, ...DEV_DEPENDENCIES].filter((name) => !specs?.has(name));
    if (missing.length > 0) {
      output.err(
        `${packages} holds no tarball of ${missing.join(', ')}: make them in a Switchboard checkout with "pnpm pack:all <dir>" and pass that folder; nothing was written.`,
      );
      return EXIT.usage;
    }
  }
  const spec = (name: string) => specs?.get(name) ?? `^${version}`;
  const manifest = {
    name: packageName(target),
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      test: 'node --test test/*.test.ts',
      dev: 'switchboard dev --team .',
      serve: 'switchboard serve',
      eval: 'switchboard eval --team .',
    },
    dependencies: Object.fromEntries([...DEPENDENCIES.map((name) => [name, spec(name)]), ['zod', ZOD]]),
    devDependencies: Object.fromEntries([
      ...DEV_DEPENDENCIES.map((name) => [name, spec(name)]),
      ['node', NODE],
    ]),
    // Every @switchboard package, the ones the team's own depend on too, from the same tarballs.
    ...(specs ? { overrides: Object.fromEntries([...specs].sort()) } : {}),
    // npm 11 runs a dependency's install script only when listed: the node package fetches Node in
    // its own, msgpackr-extract (BullMQ's) its prebuilt binary.
    allowScripts: { node: true, 'msgpackr-extract': true, protobufjs: false },
  };
  const packagesNote = specs
    ? `From the tarballs in \`${resolve(cwd, packages ?? '')}\` (made with \`pnpm pack:all\` in a Switchboard checkout): \`package.json\` names each as a \`file:\` dependency, and \`overrides\` makes every \`@switchboard/*\` package resolve to its tarball. Once the packages are published, replace each \`file:\` path with \`^${version}\`.`
    : `From the npm registry, at \`^${version}\`. Until the packages are published there, make tarballs in a Switchboard checkout (\`pnpm install && pnpm pack:all /tmp/switchboard-packs\`) and make the team with \`switchboard new team <dir> --packages /tmp/switchboard-packs\`.`;
  await mkdir(target, { recursive: true });
  for (const file of await templateFiles()) {
    const to = join(target, file === 'gitignore' ? '.gitignore' : file);
    await mkdir(resolve(to, '..'), { recursive: true });
    if (file === 'README.md') {
      const text = await readFile(join(TEMPLATE, file), 'utf8');
      await writeFile(to, text.replaceAll('{{name}}', manifest.name).replace('{{packages}}', packagesNote));
    } else await copyFile(join(TEMPLATE, file), to);
  }
  await writeFile(join(target, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const where = relative(cwd, target) || '.';
  output.out(
    `Made the team ${manifest.name} in ${where}: a supervisor, a tickets worker, a test, an eval case.`,
  );
  output.out('Next:');
  output.out(`  cd ${where}`);
  output.out('  npm install');
  output.out('  npm test');
  output.out('  npx switchboard dev --team .');
  return EXIT.ok;
}
