import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/workspace-copy.ts';

/** The paths the README's "Repository" table names, e.g. `packages/agent`. */
function tablePaths(): Set<string> {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('| path'));
  const rows = table.slice(0, table.indexOf('\n\n')).split('\n');
  return new Set(
    rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '')),
  );
}

/** Every workspace package folder: what a newcomer would look for in the table. */
function workspaceFolders(): string[] {
  const examples = readdirSync(join(REPO_ROOT, 'examples')).map((example) => `examples/${example}`);
  return ['packages', 'tools', ...examples].flatMap((tree) =>
    readdirSync(join(REPO_ROOT, tree), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${tree}/${entry.name}`),
  );
}

describe("the README's repository table", () => {
  it('names every package, tool and example folder of the tree, and nothing that is not there', () => {
    const named = tablePaths();
    expect(workspaceFolders().filter((folder) => !named.has(folder))).toEqual([]);
    const missing = [...named].filter((path) => !existsSync(join(REPO_ROOT, path)));
    expect(missing).toEqual([]);
  });
});
