/**
 * The bindings the a2a-hop bench measures, each with the processes it needs: (c) and (c') the raw
 * BullMQ floor, (a) the BullMQ binding with the client in the bench process or in a client process
 * (untraced, traced, or with the sampler off), (b) JSON-RPC over HTTP. See `a2a-hop.ts`.
 */
import { randomUUID } from 'node:crypto';
import { AgentCard } from '@a2a-js/sdk';
import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { parseQueueUrl, QueueTransportFactory, ReplyInbox } from '@switchboard/a2a-bullmq';
import type { Logger } from '@switchboard/agent';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { ask, type Child, serverCpu, startChild } from './hop-children.ts';
import { ClientMeasured } from './hop-ipc.ts';
import {
  CALL_TIMEOUT_MS,
  type Call,
  type Measured,
  measure,
  PHASE_BUDGET_MS,
  sendOnce,
} from './hop-measure.ts';
import type { RawJob } from './hop-server.ts';

/** The name of each binding, as the table shows it. */
export const BINDING = {
  rawStream: '(c) raw BullMQ, reply stream',
  rawPubSub: "(c') raw BullMQ, pub/sub",
  queue: '(a) A2A over BullMQ',
  queueProcess: '(a) A2A over BullMQ, client process',
  queueTraced: '(a) A2A over BullMQ, traced',
  queueUnsampled: '(a) A2A over BullMQ, SDK on, sampler off',
  http: '(b) A2A JSON-RPC over HTTP',
} as const;

/** What every binding of one run shares. */
export interface HopContext {
  redisUrl: string;
  /** The bench process's connection, shared by its clients. */
  redis: Redis;
  /** Every key and channel of the run starts with it. */
  namespace: string;
  logger: Logger;
}

/** The job options QueueTransportFactory gives its queues, so (c) stores what (a) stores. */
const jobOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 500 },
  removeOnComplete: { age: 60, count: 1_000 },
  removeOnFail: { age: 24 * 3600, count: 10_000 },
};

/** Starts a script of the bench with the run's Redis. */
const start = (context: HopContext, name: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) =>
  startChild(name, args, { ...env, REDIS_URL: context.redisUrl });

/** A binding under test: how to run a phase of calls, and the CPU time its server has used so far. */
export interface Binding {
  name: string;
  run(calls: number, inFlight: number): Promise<Measured>;
  serverCpuMs(): Promise<number>;
}

/** Bindings and how to take their servers and clients down. */
export interface Opened {
  bindings: Binding[];
  close(): Promise<void>;
}

const inProcess =
  (call: Call) =>
  (calls: number, inFlight: number): Promise<Measured> =>
    measure(call, calls, inFlight);

/** How a server and client process pair of (a) runs: untraced, traced, or SDK on but sampling nothing. */
export type Tracing = { otlp?: undefined } | { otlp: string; sampled: boolean };

/**
 * (a) with the client in its own process (hop-client.ts) and its own queue server, so that the
 * untraced and the traced variants differ in nothing but tracing. Traced: both processes start an
 * SDK exporting to `otlp`; not `sampled`: the same, with OTEL_TRACES_SAMPLER=always_off, which keeps
 * context propagation and the tracing API calls but records no span. `calls()` counts the calls made.
 */
export async function openClientProcessBinding(
  context: HopContext,
  name: string,
  label: string,
  tracing: Tracing,
): Promise<Opened & { calls(): number }> {
  const { namespace } = context;
  const otlpArgs = tracing.otlp ? ['--otlp', tracing.otlp] : [];
  const env: NodeJS.ProcessEnv =
    tracing.otlp && !tracing.sampled ? { OTEL_TRACES_SAMPLER: 'always_off' } : {};
  const server = await start(
    context,
    'hop-server.ts',
    ['queue', `{${namespace}:${label}}`, ...otlpArgs],
    env,
  );
  let client: Child;
  try {
    client = await start(context, 'hop-client.ts', ['--namespace', namespace, ...otlpArgs], {
      ...env,
      HOP_CLIENT_CARD: JSON.stringify(server.ready.card),
    });
  } catch (error) {
    await server.stop();
    throw error;
  }
  let next = 0;
  let issued = 0;
  const run = async (calls: number, inFlight: number): Promise<Measured> => {
    const id = next++;
    const { latencies, errors, wallMs, cpuMs, firstError } = await ask(
      client.process,
      { type: 'measure', id, calls, inFlight },
      ClientMeasured,
      (reply) => reply.id === id,
      PHASE_BUDGET_MS + CALL_TIMEOUT_MS + 10_000,
    );
    issued += latencies.length + errors;
    return { latencies, errors, wallMs, cpuMs, ...(firstError ? { firstError } : {}) };
  };
  // Each flushes its spans as it exits; the client first, while its server still answers.
  const close = async () => {
    await client.stop();
    await server.stop();
  };
  return { bindings: [{ name, run, serverCpuMs: serverCpu(server) }], close, calls: () => issued };
}

export async function openQueueBinding(context: HopContext): Promise<Opened> {
  const { redis, namespace, logger } = context;
  const server = await start(context, 'hop-server.ts', ['queue', `{${namespace}:a2a}`]);
  const factory = new QueueTransportFactory({ redis, namespace, timeoutMs: CALL_TIMEOUT_MS, logger });
  const close = async () => {
    await factory.close();
    await server.stop();
  };
  try {
    const client = await new ClientFactory({ transports: [factory] }).createFromAgentCard(
      AgentCard.fromJSON(server.ready.card),
    );
    const run = inProcess(sendOnce(client));
    return { bindings: [{ name: BINDING.queue, run, serverCpuMs: serverCpu(server) }], close };
  } catch (error) {
    await close();
    throw error;
  }
}

export async function openHttpBinding(context: HopContext): Promise<Opened> {
  const { namespace } = context;
  const server = await start(context, 'hop-server.ts', ['http', `{${namespace}:http}`]);
  try {
    const client = await new ClientFactory({
      transports: [new JsonRpcTransportFactory()],
    }).createFromAgentCard(AgentCard.fromJSON(server.ready.card));
    const run = inProcess(sendOnce(client));
    return { bindings: [{ name: BINDING.http, run, serverCpuMs: serverCpu(server) }], close: server.stop };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

export async function openRawFloor(context: HopContext): Promise<Opened> {
  const { redis, namespace, logger } = context;
  const server = await start(context, 'hop-server.ts', ['raw', `{${namespace}:raw}`]);
  const { queue: name, prefix } = parseQueueUrl(server.ready.url);
  const queue = new Queue<RawJob>(name, { connection: redis, prefix, defaultJobOptions: jobOptions });
  const inbox = new ReplyInbox({ redis, namespace, logger });
  const subscriber = redis.duplicate();
  const channel = `${namespace}:pubsub`;
  const waiting = new Map<string, () => void>();
  subscriber.on('message', (_channel: string, message: string) => {
    waiting.get(message.slice(0, message.indexOf(' ')))?.();
  });
  const close = async () => {
    await inbox.close();
    await queue.close();
    subscriber.disconnect();
    await server.stop();
  };
  try {
    await subscriber.subscribe(channel);
  } catch (error) {
    await close();
    throw error;
  }
  const viaStream: Call = async () => {
    const requestId = randomUUID();
    const subscription = inbox.open(requestId);
    try {
      await queue.add('raw', { requestId, replyTo: inbox.key }, { jobId: requestId });
      await subscription.next({ timeoutMs: CALL_TIMEOUT_MS });
    } finally {
      subscription.close();
    }
  };
  const viaPubSub: Call = async () => {
    const requestId = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const replied = new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no reply within ${CALL_TIMEOUT_MS} ms`)), CALL_TIMEOUT_MS);
      waiting.set(requestId, resolve);
    });
    try {
      await queue.add('raw', { requestId, replyTo: channel, via: 'pubsub' }, { jobId: requestId });
      await replied;
    } finally {
      clearTimeout(timer);
      waiting.delete(requestId);
    }
  };
  const serverCpuMs = serverCpu(server);
  return {
    bindings: [
      { name: BINDING.rawStream, run: inProcess(viaStream), serverCpuMs },
      { name: BINDING.rawPubSub, run: inProcess(viaPubSub), serverCpuMs },
    ],
    close,
  };
}
