/**
 * The child processes of the a2a-hop bench (hop-server.ts, hop-client.ts, otlp-sink.ts): how to
 * start one and wait until it serves, and how to ask it something over its IPC channel.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { type ClientCommand, type CpuQuery, CpuReport, type SinkCommand } from './hop-ipc.ts';

const benchDir = fileURLToPath(new URL('..', import.meta.url));

/** What a child prints on its `ready` line. */
export interface Ready {
  url: string;
  card?: unknown;
}

/**
 * A child process of this bench (node, which strips the types itself), with an IPC channel: the
 * children stop when it closes, so none outlives the bench, even one killed outright.
 */
export interface Child {
  process: ChildProcess;
  ready: Ready;
  stop(): Promise<void>;
}

/**
 * Starts one of the bench's scripts (`name`, in this folder) in its own process, node, which runs TypeScript itself, as a
 * loader, its environment this one's plus `env`, and waits for its `ready <json>` line (30 s at most).
 */
export async function startChild(
  name: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<Child> {
  const script = fileURLToPath(new URL(`./${name}`, import.meta.url));
  const child: ChildProcess = spawn(process.execPath, [script, ...args], {
    cwd: benchDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    // Its own process group, so stopping it reaches whatever it started too.
    detached: true,
  });
  const killGroup = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // nothing of the group is left
    }
  };
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      killGroup();
      reject(new Error(`${name} did not start within 30 s: ${output}`));
    }, 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = /^ready (.*)$/m.exec(output)?.[1];
      if (line === undefined) return;
      clearTimeout(timer);
      resolve(JSON.parse(line) as Ready);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before it was ready: ${output}`));
    });
  });
  const stop = async () => {
    child.kill('SIGTERM');
    const kill = setTimeout(killGroup, 20_000);
    await exited;
    clearTimeout(kill);
    killGroup();
  };
  return { process: child, ready, stop };
}

/** Sends `message` to a child and resolves with its first reply that `schema` and `accept` take. */
export function ask<T>(
  child: ChildProcess,
  message: ClientCommand | CpuQuery | SinkCommand,
  schema: z.ZodType<T>,
  accept: (reply: T) => boolean = () => true,
  timeoutMs = 10_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no answer to ${message.type} within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (reply: unknown) => {
      const parsed = schema.safeParse(reply);
      if (!parsed.success || !accept(parsed.data)) return;
      done();
      resolve(parsed.data);
    };
    const onExit = () => {
      done();
      reject(new Error(`the child process exited before it answered ${message.type}`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send(message);
  });
}

/** The CPU time a server process has used so far. */
export const serverCpu = (server: Child) => async () =>
  (await ask(server.process, { type: 'cpu' }, CpuReport)).cpuMs;
