/**
 * A client side of the a2a-hop bench in its own process: the SDK `Client` over
 * `QueueTransportFactory`, as the bench process makes it for (a), optionally traced.
 *
 *   HOP_CLIENT_CARD=<card json> node src/hop-client.ts --namespace <ns> [--otlp <url>]
 *
 * With `--otlp`, an OpenTelemetry SDK is registered first (`startTelemetry`, exporting OTLP/HTTP to
 * that base URL), so the CLIENT and PRODUCER spans are recorded and the envelope carries a real W3C
 * context, as in a traced deployment; the bench process itself never registers one, so the untraced
 * bindings it measures pay nothing for tracing.
 *
 * Prints one line `ready {}` once the client is made, then runs each `measure` command of the IPC
 * channel with the bench's own loop (`hop-measure.ts`) and answers with the result; on SIGTERM (or
 * when the bench is gone) it closes the client, flushes its spans and exits. Reads REDIS_URL, and the agent card from
 * HOP_CLIENT_CARD (not an argument, which the traces would carry in `process.command_args`).
 */
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { namespace: { type: 'string' }, otlp: { type: 'string' } },
});
const { namespace, otlp } = values;
const card = process.env.HOP_CLIENT_CARD;
if (!namespace || !card) {
  console.error('usage: HOP_CLIENT_CARD=<card json> hop-client.ts --namespace <ns> [--otlp <url>]');
  process.exit(2);
}
// Imported only when tracing, so the untraced client does not even load the SDK.
const telemetry = otlp
  ? await (await import('@switchboard/telemetry')).startTelemetry({
      serviceName: 'hop-client',
      serviceVersion: '0.0.0',
      environment: 'bench',
      instanceId: `hop-client-${process.pid}`,
      otlpEndpoint: otlp,
    })
  : undefined;
// Loaded after telemetry started, so instrumentation is in place first.
const { AgentCard } = await import('@a2a-js/sdk');
const { ClientFactory } = await import('@a2a-js/sdk/client');
const { QueueTransportFactory } = await import('@switchboard/a2a-bullmq');
const { createRedisConnection } = await import('@switchboard/redis');
const { silentLogger } = await import('@switchboard/agent');
const { ClientCommand } = await import('./hop-ipc.ts');
const { CALL_TIMEOUT_MS, measure, sendOnce } = await import('./hop-measure.ts');

const redis = createRedisConnection({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
const factory = new QueueTransportFactory({
  redis,
  namespace,
  timeoutMs: CALL_TIMEOUT_MS,
  logger: silentLogger(),
});
const client = await new ClientFactory({ transports: [factory] }).createFromAgentCard(
  AgentCard.fromJSON(JSON.parse(card)),
);
const call = sendOnce(client);

let closing: Promise<void> | undefined;
const close = () => {
  closing ??= (async () => {
    setTimeout(() => process.exit(1), 15_000).unref();
    try {
      await factory.close();
      await redis.quit();
      await telemetry?.shutdown();
      process.exit(0);
    } catch (error) {
      console.error('hop-client did not stop cleanly:', error);
      process.exit(1);
    }
  })();
  return closing;
};

// One phase at a time: the bench waits for each answer before it sends the next command.
process.on('message', (message: unknown) => {
  const command = ClientCommand.safeParse(message);
  if (!command.success) {
    console.error('hop-client: unexpected message', message);
    return;
  }
  const { id, calls, inFlight } = command.data;
  void measure(call, calls, inFlight).then((measured) =>
    process.send?.({ type: 'measured', id, ...measured }),
  );
});
process.once('SIGTERM', () => void close());
process.once('disconnect', () => void close());
process.stdout.write('ready {}\n');
