/**
 * A process that writes one large trace to a span file as a service does (`startTelemetry` with a
 * span file): `node span-writer.ts <file> <rounds> <spans per round> <start at, epoch ms>`. Each span carries 20
 * attributes of a kilobyte (within any per-value length limit), so each round's spans leave in one
 * export of more than a megabyte; writers given the same start write at the same time. Prints the
 * trace id first.
 */
import { context, trace } from '@opentelemetry/api';
import { startTelemetry } from '@switchboard/telemetry';

const [file = '', rounds = '10', perRound = '60', startAt = '0'] = process.argv.slice(2);
const telemetry = await startTelemetry({
  serviceName: 'writer',
  serviceVersion: '0.1.0',
  environment: 'test',
  instanceId: `writer-${process.pid}`,
  spanFile: file,
  instrumentHttp: false,
  exportMetricsAndLogs: false,
});
const tracer = trace.getTracer('span-writer');
const root = tracer.startSpan('invoke_agent writer');
process.stdout.write(`${root.spanContext().traceId}\n`);
const parent = trace.setSpan(context.active(), root);
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
for (let round = 0; round < Number(rounds); round++) {
  for (let i = 0; i < Number(perRound); i++) {
    const attributes = Object.fromEntries(
      Array.from({ length: 20 }, (_, n) => [
        `switchboard.note.${n}`,
        `${round}.${i}.${n} `.padEnd(1000, 'x'),
      ]),
    );
    tracer.startSpan(`execute_tool step_${round}_${i}`, { attributes }, parent).end();
  }
  // Each round leaves in an export of its own (the processor's delay is 200 ms).
  await new Promise((resolve) => setTimeout(resolve, 250));
}
root.end();
await telemetry.shutdown();
