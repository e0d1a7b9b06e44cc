// Builds and packs every publishable package (packages/* with a publishConfig) into one directory, and
// prints the tarballs' paths, one a line. `pnpm pack:all [dir]`; dir defaults to .packs/ (git-ignored).
//
// The build runs without turbo's cache (tsc -b is incremental on its own), and what dist/src holds of a
// source since deleted is removed, so a tarball holds what the sources compile to now. dist is not
// removed whole: `tsc -b` of the typecheck writes there too, and a project that references a package
// would rebuild it (concurrently, under `pnpm test`) if its build info went. pnpm pack applies
// publishConfig (exports at dist) and writes the real versions for `workspace:*`. docs/packages.md says how a project outside
// the repository installs the tarballs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const destination = resolve(process.argv[2] ?? join(root, '.packs'));

/** The publishable packages: folder and name. */
const packages = readdirSync(join(root, 'packages'))
  .sort()
  .map((folder) => join(root, 'packages', folder))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
  .filter(({ manifest }) => manifest.publishConfig && !manifest.private);

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    process.stderr.write(result.stdout);
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited with ${result.status ?? result.signal}`);
  }
  return result.stdout;
}

/** The output files of dist/src whose source in src/ is gone (`a.js`, `a.d.ts`, `a.js.map`, … of `a.ts`). */
function orphans(dir) {
  const built = join(dir, 'dist', 'src');
  if (!existsSync(built)) return [];
  return readdirSync(built, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => {
      const source = relative(built, file).replace(/(?:\.d)?\.(?:js|ts)(?:\.map)?$/, '.ts');
      return !existsSync(join(dir, 'src', source));
    });
}

const filters = packages.flatMap(({ manifest }) => ['--filter', manifest.name]);
// The build's own log goes to stderr, so stdout is the tarballs alone.
process.stderr.write(run('pnpm', ['exec', 'turbo', 'run', 'build', '--force', ...filters], root));

for (const { dir } of packages)
  for (const file of orphans(dir)) {
    process.stderr.write(`removing ${relative(root, file)}: its source is gone\n`);
    rmSync(file);
  }

mkdirSync(destination, { recursive: true });
for (const { dir, manifest } of packages) {
  const packed = JSON.parse(run('pnpm', ['pack', '--json', '--pack-destination', destination], dir));
  const tarball = (Array.isArray(packed) ? packed[0] : packed)?.filename;
  if (typeof tarball !== 'string') throw new Error(`pnpm pack of ${manifest.name} named no tarball`);
  process.stdout.write(`${resolve(destination, tarball)}\n`);
}
