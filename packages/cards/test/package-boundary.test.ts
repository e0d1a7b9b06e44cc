import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = new URL('../', import.meta.url);
const src = fileURLToPath(new URL('src/', root));
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  dependencies?: Record<string, string>;
};

/** The packages a source file imports (`@a2a-js/sdk`, not `@a2a-js/sdk/client`; no `node:` builtins). */
function importedPackages(file: string): string[] {
  const text = readFileSync(`${src}${file}`, 'utf8');
  return [...text.matchAll(/^(?:import|export)\b[^'"]*?from\s+'([^'.][^']*)'/gm)]
    .map((match) => match[1] ?? '')
    .filter((specifier) => !specifier.startsWith('node:'))
    .map((specifier) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/'),
    );
}

// The toolkit is what a CLI, a build step or a peer's host loads to read a card: checking a card
// must never start an agent runtime, Redis client or HTTP server on the way.
describe('what @switchboard/cards depends on', () => {
  it('is the A2A SDK, the schema validator and jose (card signatures), not the agent runtime or the hosting package', () => {
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual([
      '@a2a-js/sdk',
      'ajv',
      'ajv-formats',
      'jose',
    ]);
  });

  it('is all its sources import', () => {
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const imported = new Set(files.flatMap(importedPackages));
    expect([...imported].sort()).toEqual(['@a2a-js/sdk', 'ajv', 'ajv-formats', 'jose']);
  });
});
