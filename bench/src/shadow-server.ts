/**
 * A process of the shadow-overhead bench, started by `shadow-overhead.ts`:
 *
 *   node src/shadow-server.ts <off|on|tap|worker> <key prefix> [share of requests copied, default 1]
 *
 * - `off`: the shop agent over HTTP (JSON-RPC), no shadow;
 * - `on`: the same with a shadow in this process, as a service runs one (`ShadowTap` copying every
 *   request, `startShadowWorker` running the copies);
 * - `tap`: the same tap, the copies run by a `worker` process;
 * - `worker`: a shadow worker alone, taking the copies under `<key prefix>`.
 *
 * The agent looks an order up (a read tool) and answers; its model is scripted (answers at once), so
 * what is measured is hosting and the shadow, not a model. Prints `ready <json>` once it serves,
 * answers `cpu` (CPU time used so far) and `pairs` (pairs with both sides in) on its IPC channel, and
 * exits on SIGTERM or when the bench goes away. Reads REDIS_URL.
 */

import { defineAgent, defineTool, silentLogger } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { hostAgent } from '@switchboard/host';
import { createRedisConnection } from '@switchboard/redis';
import {
  ShadowCopyStream,
  ShadowPairStore,
  ShadowTap,
  type ShadowWorker,
  startShadowWorker,
} from '@switchboard/shadow';
import { z } from 'zod';
import { CpuQuery, type CpuReport } from './hop-ipc.ts';

const [mode, prefix, shareText = '1'] = process.argv.slice(2);
const share = Number(shareText);
if (!['off', 'on', 'tap', 'worker'].includes(mode ?? '') || !prefix || !(share >= 0 && share <= 1)) {
  console.error('usage: shadow-server.ts <off|on|tap|worker> <key prefix> [share, default 1]');
  process.exit(2);
}
const logger = silentLogger();
const redis = createRedisConnection({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });

const getOrder = defineTool({
  name: 'get_order',
  summary: 'Look an order up by its id.',
  whenToUse: 'The user asks about an order.',
  input: z.object({ orderId: z.string() }),
  risk: 'read',
  handler: ({ orderId }) => ({ orderId, status: 'shipped' }),
});
const agent = defineAgent({ name: 'shop', instructions: 'Answer order questions.', tools: [getOrder] });
const model = () =>
  new ScriptedModel({
    turns: [],
    whenExhausted: (request) =>
      request.messages.at(-1)?.role === 'user'
        ? { toolCalls: [{ name: 'get_order', arguments: { orderId: 'A10086' } }] }
        : { text: 'Order A10086 has shipped.' },
  });

const copies = new ShadowCopyStream({ redis, prefix, agent: agent.name });
const pairs = new ShadowPairStore({ redis, prefix, retentionSeconds: 3600 });
const worker: ShadowWorker | undefined =
  mode === 'on' || mode === 'worker'
    ? startShadowWorker({
        agent,
        model: model(),
        copies,
        pairs,
        redis: redis.duplicate(),
        concurrency: 8,
        // In the service's process it yields to live work as a service's shadow does (its default
        // <AGENT>_SHADOW_YIELD_ABOVE); a worker of its own takes all its process has.
        yieldAbove: mode === 'on' ? 0.7 : 1,
        logger,
      })
    : undefined;
const tap =
  mode === 'on' || mode === 'tap'
    ? new ShadowTap({ agent, candidate: 'bench', share, copies, pairs, logger })
    : undefined;
const host =
  mode === 'worker'
    ? undefined
    : await hostAgent({ agent, model: model(), http: {}, logger, ...(tap ? { shadow: tap } : {}) });
await host?.start();

process.on('message', async (message: unknown) => {
  if (CpuQuery.safeParse(message).success) {
    const { user, system } = process.cpuUsage();
    const report: CpuReport = { type: 'cpu', cpuMs: (user + system) / 1000 };
    process.send?.(report);
  } else if ((message as { type?: string })?.type === 'shadow') {
    process.send?.({ type: 'shadow', handled: worker?.handled ?? 0, outbox: tap?.counts });
  }
});
let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(1), 10_000).unref();
  (async () => {
    await host?.close();
    await worker?.close();
    await tap?.flush();
    await redis.quit();
  })().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error('shadow-server did not stop cleanly:', error);
      process.exit(1);
    },
  );
};
process.once('SIGTERM', shutdown);
process.once('disconnect', shutdown);
process.stdout.write(`ready ${JSON.stringify({ url: host?.url ?? `worker ${prefix}` })}\n`);
