#!/usr/bin/env node
// Runs the TypeScript sources directly (tsx), so the command works from a fresh clone with no build.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
