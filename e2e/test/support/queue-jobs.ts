import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import type { Principal } from '@switchboard/agent';
import { requestDigest, SERVICE_ASSERTION_TYPE, type ServicePrivateKey } from '@switchboard/identity';
import { type Job, Queue } from 'bullmq';
import type { TestSystem } from './system.ts';

/** A JSON-RPC reply as a worker writes it on a reply stream. */
export interface RpcReply {
  id?: unknown;
  error?: { code: number; message: string };
  result?: unknown;
}

/** What a job hands a worker, as an envelope carries it. */
export interface JobInput {
  /** The JSON-RPC request text. */
  request: string;
  /** The `authorization` service parameter, when the job carries one. */
  authorization?: string | undefined;
  /** The BullMQ job id (default: a new one). */
  jobId?: string;
}

/** One worker's queue, written to as anyone with access to Redis could. */
export interface WorkerQueue {
  readonly queue: Queue;
  /** Ids of the jobs `send` added. */
  readonly added: ReadonlySet<string>;
  /**
   * Adds a job as a peer service would and waits for the worker's last reply frame: the JSON-RPC
   * error or result of a unary call, the last item of a stream. Rejects after 30 s without one.
   */
  send(input: JobInput): Promise<RpcReply>;
  /** Ids of the tasks the worker keeps in its task store. */
  taskIds(): Promise<string[]>;
  /** Jobs the worker finished, newest first. */
  finished(): Promise<Job[]>;
  close(): Promise<void>;
}

/** A JSON-RPC `SendMessage` request text with one text part, as a peer service would queue it. */
export function sendMessageText(text: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: randomUUID(),
    method: 'SendMessage',
    params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] } },
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The queue of a worker of the test system (`orders`, `inventory`, `comms`), with a reply stream of its own. */
export function workerQueue(system: TestSystem, agent: string): WorkerQueue {
  const prefix = `{${system.namespace}:${agent}}`;
  const queue = new Queue(`a2a.${agent}`, { connection: system.redis, prefix });
  const replyTo = `${system.namespace}:reply:adversary-${randomUUID()}`;
  const added = new Set<string>();
  const lastFrame = async (requestId: string): Promise<string | undefined> => {
    let last: string | undefined;
    for (const [, fields] of await system.redis.xrange(replyTo, '-', '+')) {
      const frame = Object.fromEntries(
        fields.flatMap((field, i) => (i % 2 === 0 ? [[field, fields[i + 1] ?? '']] : [])),
      );
      if (frame.rid !== requestId) continue;
      if (frame.b) last = frame.b;
      if (frame.k === 'end') return last ?? '{}';
    }
    return undefined;
  };
  return {
    queue,
    added,
    async send({ request, authorization, jobId = randomUUID() }) {
      const requestId = randomUUID();
      added.add(jobId);
      const serviceParameters = { 'a2a-version': '1.0', ...(authorization ? { authorization } : {}) };
      await queue.add('SendMessage', { v: 1, requestId, replyTo, serviceParameters, request }, { jobId });
      for (let attempt = 0; attempt < 120; attempt++) {
        const body = await lastFrame(requestId);
        if (body !== undefined) return JSON.parse(body) as RpcReply;
        await pause(250);
      }
      throw new Error(`no reply from ${agent} to job ${jobId} within 30 s`);
    },
    async taskIds() {
      const keys = await system.redis.keys(`${prefix}:task:*`);
      return keys.map((key) => key.slice(`${prefix}:task:`.length)).sort();
    },
    finished: () => queue.getCompleted(0, -1),
    close: () => queue.close(),
  };
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * An on-behalf-of assertion as `serviceSigner` makes one, but issued and expired `agoSeconds` ago:
 * what a captured assertion is once its minute is over. Signed with `key`, a key the workers trust.
 */
export function expiredAssertion({
  key,
  audience,
  principal,
  request,
  agoSeconds = 300,
}: {
  key: ServicePrivateKey;
  audience: string;
  principal: Principal;
  request: string;
  agoSeconds?: number;
}): string {
  const issuedAt = Math.floor(Date.now() / 1_000) - agoSeconds;
  const signingInput = [
    base64url({ alg: 'EdDSA', kid: key.kid, typ: SERVICE_ASSERTION_TYPE }),
    base64url({
      kind: principal.kind,
      roles: principal.roles,
      via: principal.via,
      request_sha256: requestDigest(request),
      iss: key.kid.split(':')[0],
      aud: audience,
      sub: principal.id,
      jti: randomUUID(),
      iat: issuedAt,
      exp: issuedAt + 60,
    }),
  ].join('.');
  const signature = sign(null, Buffer.from(signingInput), createPrivateKey({ key, format: 'jwk' }));
  return `${signingInput}.${signature.toString('base64url')}`;
}
