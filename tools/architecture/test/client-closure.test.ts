import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/workspace-copy.ts';

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
}

/** Every workspace package's manifest, by name, with its folder. */
function workspace(): Map<string, { dir: string; manifest: Manifest }> {
  const parents = [
    'packages',
    'tools',
    ...readdirSync(join(REPO_ROOT, 'examples')).map((e) => `examples/${e}`),
  ];
  const found = new Map<string, { dir: string; manifest: Manifest }>();
  for (const parent of parents)
    for (const child of readdirSync(join(REPO_ROOT, parent))) {
      const file = join(REPO_ROOT, parent, child, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
      found.set(manifest.name, { dir: `${parent}/${child}`, manifest });
    }
  return found;
}

/** What installing `name` for production brings: our packages (with their folders) and npm's. */
function productionClosure(name: string): { ours: string[]; npm: Set<string> } {
  const packages = workspace();
  const ours: string[] = [];
  const npm = new Set<string>();
  const pending = [name];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const pkg = packages.get(next);
    if (!pkg || ours.includes(pkg.dir)) continue;
    ours.push(pkg.dir);
    for (const dependency of Object.keys(pkg.manifest.dependencies ?? {}))
      packages.has(dependency) ? pending.push(dependency) : npm.add(dependency);
  }
  return { ours, npm };
}

describe('what the switchboard command installs', () => {
  const { ours, npm } = productionClosure('@switchboard/cli');

  it('is a client: no server, no express, no task store', () => {
    expect(ours).toContain('packages/delegate');
    expect(ours).not.toContain('packages/host');
    expect(ours).not.toContain('packages/service');
    expect(npm.has('express')).toBe(false);
  });

  it('holds no example and no app: it loads a team at run time', () => {
    expect(ours.filter((dir) => dir.startsWith('examples/'))).toEqual([]);
  });
});

describe('what a caller of other agents installs', () => {
  it('@switchboard/delegate brings no server and no express', () => {
    const { ours, npm } = productionClosure('@switchboard/delegate');
    expect(ours).not.toContain('packages/host');
    expect(npm.has('express')).toBe(false);
  });
});
