#!/usr/bin/env node
// Node 24 runs the TypeScript sources itself (type stripping), so the command works from a fresh clone
// with no build step and no transpiler.
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2), { env: process.env });
