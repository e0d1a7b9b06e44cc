import { posix } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { readRepoFile } from './paths.ts';

interface Importer {
  dependencies?: Record<string, { version: string }>;
  optionalDependencies?: Record<string, { version: string }>;
  devDependencies?: Record<string, { version: string }>;
}
interface Snapshot {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
interface Lockfile {
  importers: Record<string, Importer>;
  snapshots: Record<string, Snapshot>;
}

/** pnpm-lock.yaml's workspace document (the one with the workspace's importers, not pnpm's own). */
export function readLockfile(): Lockfile {
  const documents = parseAllDocuments(readRepoFile('pnpm-lock.yaml')).map((d) => d.toJS() as Lockfile);
  const workspace = documents.find((d) => d.importers && 'packages/service' in d.importers);
  if (!workspace) throw new Error('pnpm-lock.yaml has no document with the workspace importers');
  return workspace;
}

/**
 * The names of the packages installed for some workspace folders, as the lockfile resolves them:
 * their `dependencies` and `optionalDependencies` (and `devDependencies` when asked, as a plain
 * `pnpm install` does), workspace links followed, transitively.
 */
export function installedClosure(
  lockfile: Lockfile,
  importers: readonly string[],
  { dev = false }: { dev?: boolean } = {},
): Set<string> {
  const names = new Set<string>();
  const seenImporters = new Set<string>();
  const seenSnapshots = new Set<string>();
  const visitSnapshot = (dependency: string, resolved: string) => {
    // An alias (`"a2a-sdk-03": "npm:@a2a-js/sdk@0.3.14"`) resolves to `<real name>@<version>`.
    const alias = /^(@?[a-z][^@()]*)@(\d.*)$/i.exec(resolved);
    const [name, version] = alias ? [alias[1] ?? dependency, alias[2] ?? ''] : [dependency, resolved];
    const key = `${name}@${version}`;
    if (seenSnapshots.has(key)) return;
    seenSnapshots.add(key);
    names.add(name);
    const snapshot = lockfile.snapshots[key];
    if (!snapshot) throw new Error(`pnpm-lock.yaml has no snapshot ${key}`);
    for (const [child, childVersion] of Object.entries({
      ...snapshot.dependencies,
      ...snapshot.optionalDependencies,
    }))
      visitSnapshot(child, childVersion);
  };
  const visitImporter = (dir: string) => {
    if (seenImporters.has(dir)) return;
    seenImporters.add(dir);
    const importer = lockfile.importers[dir];
    if (!importer) throw new Error(`pnpm-lock.yaml has no importer ${dir}`);
    const entries = {
      ...importer.dependencies,
      ...importer.optionalDependencies,
      ...(dev ? importer.devDependencies : {}),
    };
    for (const [name, { version }] of Object.entries(entries)) {
      if (version.startsWith('link:')) visitImporter(posix.join(dir, version.slice('link:'.length)));
      else visitSnapshot(name, version);
    }
  };
  for (const importer of importers) visitImporter(importer);
  return names;
}
