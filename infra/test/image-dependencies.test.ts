import { describe, expect, it } from 'vitest';
import { runtimeClosure, runtimeImports, workspacePackages } from './support/imports.ts';
import { installedClosure, readLockfile } from './support/lockfile.ts';
import { readRepoFile, SERVICES, serviceDir } from './support/paths.ts';

/**
 * The image installs production dependencies only (`pnpm install --prod`), so a package that imports
 * something it lists under devDependencies starts on a developer's machine and fails in the image.
 */
describe('what the image runs', () => {
  const packages = workspacePackages();
  // The four services, and the CLI for `switchboard seed` (the compose seed service and the k8s Job).
  const roots = [...SERVICES.map((service) => `@switchboard/${service}`), '@switchboard/cli'];
  const running = runtimeClosure(roots, packages);
  /** Packages the Dockerfile links into a package's node_modules by hand: `ln -s … packages/<p>/node_modules/<name>`. */
  const linked = [
    ...readRepoFile('infra/Dockerfile').matchAll(
      /ln -s \S+ ((?:examples\/[^/\s]+|packages)\/[^/\s]+)\/node_modules\/(\S+)/g,
    ),
  ].map((match) => `${match[1]} ${match[2]}`);

  it('covers the four services and the packages they use', () => {
    const names = running.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining([...roots, '@switchboard/service', '@switchboard/host']));
  });

  it('imports at run time only production dependencies (or what the Dockerfile links)', () => {
    const missing = running.flatMap((pkg) =>
      [...runtimeImports(pkg.dir)]
        .filter(([name]) => name !== pkg.name && !(name in pkg.dependencies))
        .filter(([name]) => !linked.includes(`${pkg.dir} ${name}`))
        .map(
          ([name, file]) => `${pkg.name} imports ${name} (${file}) but does not list it under dependencies`,
        ),
    );
    expect(missing).toEqual([]);
  });

  it('links by hand only what a package really imports and does not declare', () => {
    for (const link of linked) {
      const [dir, name] = link.split(' ');
      const pkg = running.find((p) => p.dir === dir);
      expect(pkg, `${link}: the package is in the image`).toBeDefined();
      expect(runtimeImports(dir ?? '').has(name ?? ''), `${link}: it is imported`).toBe(true);
    }
  });
});

/** Packages that compile or strip TypeScript: none is needed where Node 24 strips the types itself. */
const TRANSPILER =
  /^(tsx|ts-node|esbuild|typescript|@esbuild\/.+|@swc\/(core|register|cli|wasm).*|@swc-node\/.+|sucrase|@babel\/core)$/;

describe('what the image installs', () => {
  const lockfile = readLockfile();
  // `pnpm install --prod` at the root installs the production dependencies of every workspace package.
  const everyPackage = Object.keys(lockfile.importers);
  const installed = installedClosure(lockfile, everyPackage);
  const services = [...SERVICES.map(serviceDir), 'packages/cli'];

  it('holds what the services and the CLI run, and none of the test tools', () => {
    const running = installedClosure(lockfile, services);
    for (const name of ['@a2a-js/sdk', 'bullmq', 'ioredis', 'express', 'zod', '@opentelemetry/sdk-node'])
      expect(running, name).toContain(name);
    for (const name of running) expect(installed, name).toContain(name);
    for (const name of ['vitest', 'vite', '@biomejs/biome', 'turbo'])
      expect(installed, name).not.toContain(name);
  });

  it('holds no TypeScript transpiler or loader: node runs the sources with type stripping', () => {
    expect([...installed].filter((name) => TRANSPILER.test(name))).toEqual([]);
    // The same check finds them where they are: in the development install.
    const development = installedClosure(lockfile, everyPackage, { dev: true });
    expect([...development].filter((name) => TRANSPILER.test(name))).toEqual(
      expect.arrayContaining(['typescript', 'esbuild']),
    );
  });
});
