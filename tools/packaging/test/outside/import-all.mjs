// Run by test/installed-packages.test.ts inside the project that installed the tarballs: imports every
// entry point (each `exports` key) of every installed @switchboard package by name, and prints one line
// of JSON, the specifiers that loaded and those that failed with why.
import { readdirSync, readFileSync } from 'node:fs';

const scope = new URL('node_modules/@switchboard/', `file://${process.cwd()}/`);
const loaded = [];
const failed = [];
for (const folder of readdirSync(scope).sort()) {
  const manifest = JSON.parse(readFileSync(new URL(`${folder}/package.json`, scope), 'utf8'));
  for (const subpath of Object.keys(manifest.exports ?? {})) {
    const specifier = `${manifest.name}${subpath.slice(1)}`;
    try {
      await import(specifier);
      loaded.push(specifier);
    } catch (error) {
      failed.push({ specifier, error: `${error.code ?? error.name}: ${error.message}` });
    }
  }
}
process.stdout.write(`${JSON.stringify({ loaded, failed })}\n`);
