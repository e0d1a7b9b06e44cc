/**
 * A parent that ignores SIGTERM and starts a grandchild that ignores it too, in its process group (not
 * detached): only SIGKILL to the group ends both. Prints `grandchild <pid>` once the grandchild runs.
 */
import { spawn } from 'node:child_process';

process.on('SIGTERM', () => {});
const grandchild = spawn(
  process.execPath,
  ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 60_000); console.log('up');"],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
grandchild.stdout.once('data', () => process.stdout.write(`grandchild ${grandchild.pid}\n`));
setInterval(() => {}, 60_000);
