/**
 * Stands in for `switchboard dev`: starts `echo-service-process.ts` the way a launcher does, with an
 * IPC channel and its output piped to this process (or written to the file LOG_FILE, when set, so a
 * test can read what it logged after this process died); prints `service <pid>` once it serves (or,
 * with ANNOUNCE=spawned, as soon as it is started), and keeps running until it is killed.
 */
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';

const logFile = process.env.LOG_FILE;
const log = logFile ? openSync(logFile, 'a') : 'pipe';
const service = spawn(process.execPath, [new URL('./echo-service-process.ts', import.meta.url).pathname], {
  env: process.env,
  stdio: ['ignore', log, log, 'ipc'],
});
service.stdout?.resume();
service.stderr?.resume();
if (process.env.ANNOUNCE === 'spawned') process.stdout.write(`service ${service.pid}\n`);
else service.once('message', () => process.stdout.write(`service ${service.pid}\n`));
service.once('exit', (code, signal) => {
  process.stderr.write(`the service exited (${code ?? signal}) before it was ready\n`);
  process.exit(1);
});
