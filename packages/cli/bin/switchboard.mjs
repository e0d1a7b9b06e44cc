#!/usr/bin/env node
// In a checkout, Node 24 runs the TypeScript sources itself (type stripping), so the command works from a
// fresh clone with no build step and no transpiler. An older Node cannot: it is told so, and what to run
// instead. An installed package has no sources (its `files` are the built JavaScript, and Node strips no
// types under node_modules): it runs `dist`, which `pnpm build` writes before `pnpm pack`.
import { existsSync } from 'node:fs';

if (!existsSync(new URL('../src/main.ts', import.meta.url))) {
  const { main } = await import(new URL('../dist/src/main.js', import.meta.url).href);
  const { endQuietlyOnClosedOutput } = await import(
    new URL('../dist/src/io/output.js', import.meta.url).href
  );
  endQuietlyOnClosedOutput();
  process.exitCode = await main(process.argv.slice(2), { env: process.env });
} else if (process.features.typescript) {
  const { main } = await import('../src/main.ts');
  const { endQuietlyOnClosedOutput } = await import('../src/io/output.ts');
  // `switchboard ... | head -1`: a reader that stops early ends the command quietly, exit 0.
  endQuietlyOnClosedOutput();
  process.exitCode = await main(process.argv.slice(2), { env: process.env });
} else {
  process.stderr.write(
    `switchboard needs Node.js 24 or newer, which runs its TypeScript sources as they are; this is Node.js ${process.version} (${process.execPath})` +
      `${process.versions.node.split('.')[0] >= 24 ? ' with type stripping turned off' : ''}.\n` +
      'Run it with the Node.js the project installs: `pnpm exec switchboard ...` (or `pnpm switchboard ...` at the repository root), or put node_modules/.bin first on your PATH.\n',
  );
  process.exitCode = 2;
}
