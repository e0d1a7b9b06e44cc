/**
 * `pnpm demo`: boots the customer-service system (a supervisor and the orders, inventory and comms
 * workers) on the offline model, plays a short conversation through the real `switchboard` CLI, and
 * stops it all. It doubles as a smoke test: exit 0 when every command did what the script expects,
 * 1 when one did not or it ran past SWITCHBOARD_DEMO_DEADLINE_MS (with where it was and the services'
 * last log lines), 2 when it could not start (a wrong setting, a port in use), 130 on Ctrl-C. Started
 * with an IPC channel (by its test), it stops the system when that parent goes away.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BootedSystem, bootSystem, devSettings, writeDevFile } from '@switchboard/cli';
import { customerServiceTeam } from '@switchboard/customer-service-team';
import { exitWithParent } from '@switchboard/service';
import { ConfigError, type DemoConfig, loadConfig } from './config.ts';
import { Conversation, DemoFailure } from './conversation.ts';
import { clearNamespace } from './demo-namespace.ts';
import { assertPortsFree, PORTS_PER_SYSTEM, PortInUseError } from './free-ports.ts';
import { modelLine } from './model-line.ts';
import { ServiceLogs } from './service-logs.ts';
import { playStories, type TraceSource } from './stories.ts';

const LOG_LINES_ON_FAILURE = 40;
/** Longest the demo takes to stop the system once its parent went away (the services drain first). */
const PARENT_GONE_DEADLINE_MS = 60_000;
const write = (text: string) => process.stdout.write(text);

function traceSource(config: DemoConfig, system: BootedSystem): TraceSource {
  if (system.mode === 'in-process') {
    return {
      kind: 'elsewhere',
      why: 'In one process the system records no spans, so there is no trace to draw; on Redis every hop is traced.',
    };
  }
  if (config.jaegerUrl) return { kind: 'jaeger', url: config.jaegerUrl };
  if (config.otlpEndpoint) {
    return {
      kind: 'elsewhere',
      why: `The services sent their spans to ${config.otlpEndpoint} (OTEL_EXPORTER_OTLP_ENDPOINT). Set SWITCHBOARD_JAEGER_URL, e.g. http://localhost:16686, and \`switchboard trace <id>\` reads them from that Jaeger.`,
    };
  }
  return { kind: 'span-file', path: config.spanFile };
}

function printHeader(config: DemoConfig, system: BootedSystem): boolean {
  const { access } = system;
  const models = modelLine({ models: config.models });
  const lastPort = config.port + PORTS_PER_SYSTEM - 1;
  write('\n');
  write(`System: ${system.note}.\n`);
  write(
    system.mode === 'processes'
      ? `        The supervisor listens at ${access.supervisorUrl}, the orders, inventory and comms workers on ports ${config.port + 1}-${lastPort}; Redis namespace "${access.namespace}".\n`
      : `        The supervisor listens at ${access.supervisorUrl}, the orders, inventory and comms workers on loopback ports of their own.\n`,
  );
  for (const line of models.lines) write(`${line}\n`);
  write('\nEvery command below is the real switchboard CLI, run against this system with SWITCHBOARD_URL,\n');
  write('SWITCHBOARD_TOKEN (a customer) and SWITCHBOARD_ADMIN_TOKEN (an operator) set.\n\n');
  return models.offline;
}

/**
 * A fresh folder whose `.switchboard/dev.json` holds the system's settings, every customer's token
 * among them, for the CLI's `--as`; a `switchboard dev` running in the current folder keeps its own.
 */
async function settingsFolder(access: BootedSystem['access']): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'switchboard-demo-'));
  await writeDevFile({ settings: devSettings(access), cwd });
  return cwd;
}

function printFailure(error: unknown, logs: ServiceLogs): void {
  console.error(`\nThe demo failed: ${error instanceof Error ? error.message : String(error)}`);
  const lines = logs.last(LOG_LINES_ON_FAILURE);
  if (lines.length === 0) return;
  console.error(`\nThe services' last ${lines.length} log lines:`);
  for (const line of lines) console.error(line);
}

/** Aborts the run when the deadline passes, with a {@link DemoFailure} that says where it was. */
function startDeadline(
  deadlineMs: number | undefined,
  interrupt: AbortController,
  where: () => string,
): NodeJS.Timeout | undefined {
  if (deadlineMs === undefined) return undefined;
  const seconds = Math.round(deadlineMs / 1000);
  return setTimeout(() => {
    interrupt.abort(new DemoFailure(`The demo did not finish within ${seconds} s; it was ${where()}.`));
  }, deadlineMs).unref();
}

async function main(interrupt: AbortController): Promise<number> {
  let config: DemoConfig;
  try {
    config = loadConfig(process.env);
    await assertPortsFree(config.port);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof PortInUseError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }

  process.once('SIGINT', () => {
    console.error('\nInterrupted: stopping the system… (Ctrl-C again to quit at once)');
    interrupt.abort();
    process.once('SIGINT', () => process.exit(130));
  });

  write('Switchboard demo: a customer-service team of four agents, a supervisor and its orders,\n');
  write('inventory and comms workers, answers a short conversation.\n');
  write('Starting the system…\n');
  const logs = new ServiceLogs();
  let where = () => 'starting the system';
  const deadline = startDeadline(config.deadlineMs, interrupt, () => where());
  const { redisUrl, namespace } = config;
  await clearNamespace({ redisUrl, namespace });
  let system: BootedSystem;
  try {
    system = await bootSystem({
      redisUrl,
      namespace,
      port: config.port,
      team: customerServiceTeam,
      resetData: true,
      baseEnv: process.env,
      env: { SWITCHBOARD_SPAN_FILE: config.spanFile },
      onLog: logs.onLog,
      logger: logs.logger(),
    });
  } catch (error) {
    const busy = error instanceof Error && /EADDRINUSE/.test(error.message);
    printFailure(
      busy
        ? new Error(
            `A port of the system was taken while it started. Pick other ports, e.g.: SWITCHBOARD_DEMO_PORT=${config.port + 100} pnpm demo\n${error.message}`,
          )
        : error,
      logs,
    );
    clearTimeout(deadline);
    return 1;
  }

  let code = 0;
  let cleanup: (() => Promise<void>) | undefined;
  try {
    if (interrupt.signal.aborted) throw new DemoFailure('Interrupted.');
    const offline = printHeader(config, system);
    const cwd = await settingsFolder(system.access);
    cleanup = () => rm(cwd, { recursive: true, force: true });
    const talk = new Conversation({
      cwd,
      env: {
        ...process.env,
        SWITCHBOARD_URL: system.access.supervisorUrl,
        SWITCHBOARD_TOKEN: system.access.token,
        SWITCHBOARD_ADMIN_TOKEN: system.access.adminToken,
        SWITCHBOARD_SPAN_FILE: config.spanFile,
      },
      offline,
      write,
      signal: interrupt.signal,
    });
    where = () => talk.where();
    await playStories({ talk, trace: traceSource(config, system) });
    write(`All ${talk.commands} commands did what the script expects.\n`);
  } catch (error) {
    const reason: unknown = interrupt.signal.reason;
    if (interrupt.signal.aborted && !(reason instanceof DemoFailure)) code = 130;
    else {
      printFailure(interrupt.signal.aborted ? reason : error, logs);
      code = 1;
    }
  } finally {
    clearTimeout(deadline);
    where = () => 'stopping the system';
    await cleanup?.();
    write('Stopping the system…\n');
    await system.stop();
    if (system.mode === 'processes') {
      await clearNamespace({ redisUrl, namespace }).catch((error: unknown) => {
        console.error(`Could not clear the Redis namespace "${namespace}": ${String(error)}`);
      });
    }
    write('Stopped.\n');
  }
  return code;
}

const interrupt = new AbortController();
const finished = main(interrupt).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(
      `The demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    process.exitCode = 1;
  },
);
// Its parent (the demo's test, say) went away, even killed outright: stop as on Ctrl-C, so the four
// services do not run on, orphaned.
exitWithParent({
  close: () => {
    interrupt.abort();
    return finished;
  },
  deadlineMs: PARENT_GONE_DEADLINE_MS,
});
