import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSpanFile, startTelemetry } from '../src/index.ts';

const identity = {
  serviceName: 'orders',
  serviceVersion: '1.2.3',
  environment: 'test',
  instanceId: 'orders-0',
};
const invokeSpec = { operation: 'invoke_agent' as const, name: 'invoke_agent orders', attributes: {} };

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchboard-trace-setup-'));
});
afterEach(async () => {
  delete process.env.OTEL_TRACES_SAMPLER;
  await rm(dir, { recursive: true, force: true });
});

describe('startTelemetry for traces only', () => {
  it('does not load NodeSDK, gRPC, Prometheus or the declarative configuration (yaml)', async () => {
    const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));
    const script = `
      import { registerHooks } from 'node:module';
      const loaded = [];
      registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
      const { startTelemetry } = await import(${JSON.stringify(entry)});
      const telemetry = await startTelemetry({ ...${JSON.stringify(identity)}, spanFile: ${JSON.stringify(join(dir, 'spans.jsonl'))} });
      await telemetry.shutdown();
      console.log(JSON.stringify(loaded.filter((url) => /sdk-node|grpc|opentelemetry[/]configuration|exporter-prometheus|node_modules[/]yaml/.test(url))));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, OTEL_SDK_DISABLED: '' },
    });
    expect(JSON.parse(stdout)).toEqual([]);
  });

  it('takes the sampler from OTEL_TRACES_SAMPLER, as NodeSDK does', async () => {
    process.env.OTEL_TRACES_SAMPLER = 'always_off';
    const spanFile = join(dir, 'spans.jsonl');
    const telemetry = await startTelemetry({ ...identity, spanFile, instrumentHttp: false });
    await telemetry.tracer.inSpan(invokeSpec, async () => {});
    await telemetry.shutdown();
    expect(await readSpanFile(spanFile).catch(() => [])).toEqual([]);
  });
});
