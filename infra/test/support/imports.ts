import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.ts';

/** A workspace package: its folder (from the repository root) and its package.json. */
export interface WorkspacePackage {
  dir: string;
  name: string;
  dependencies: Record<string, string>;
}

/** The packages under `packages/` and `examples/<example>/`, by name. */
export function workspacePackages(): Map<string, WorkspacePackage> {
  const packages = new Map<string, WorkspacePackage>();
  const examples = readdirSync(join(REPO_ROOT, 'examples')).map((example) => `examples/${example}`);
  for (const parent of ['packages', ...examples]) {
    for (const child of readdirSync(join(REPO_ROOT, parent))) {
      const dir = `${parent}/${child}`;
      if (!existsSync(join(REPO_ROOT, dir, 'package.json'))) continue;
      const json = JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8')) as {
        name: string;
        dependencies?: Record<string, string>;
      };
      packages.set(json.name, { dir, name: json.name, dependencies: json.dependencies ?? {} });
    }
  }
  return packages;
}

/** The packages a set of roots runs: the roots and their workspace dependencies, transitively. */
export function runtimeClosure(
  roots: readonly string[],
  packages: Map<string, WorkspacePackage>,
): WorkspacePackage[] {
  const seen = new Map<string, WorkspacePackage>();
  const visit = (name: string) => {
    const found = packages.get(name);
    if (!found || seen.has(name)) return;
    seen.set(name, found);
    for (const [dependency, range] of Object.entries(found.dependencies))
      if (range.startsWith('workspace:')) visit(dependency);
  };
  for (const root of roots) visit(root);
  return [...seen.values()];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|mjs|js)$/.test(entry) && !entry.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The packages a workspace package loads at run time: bare specifiers of its `src/` and `bin/` imports,
 * exports and dynamic imports (type-only imports are erased, so they do not count), mapped to the
 * file that first imports each.
 */
export function runtimeImports(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const pattern =
    /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;
  const roots = ['src', 'bin'].map((sub) => join(REPO_ROOT, dir, sub));
  for (const file of roots.flatMap((root) => {
    try {
      return sourceFiles(root);
    } catch {
      return [];
    }
  })) {
    for (const match of readFileSync(file, 'utf8').matchAll(pattern)) {
      const specifier = match[1] ?? match[2] ?? '';
      if (specifier.startsWith('.') || specifier.startsWith('node:') || builtinModules.includes(specifier))
        continue;
      const name = specifier.startsWith('@')
        ? specifier.split('/').slice(0, 2).join('/')
        : specifier.split('/')[0];
      if (name && !found.has(name)) found.set(name, file.slice(REPO_ROOT.length));
    }
  }
  return found;
}
