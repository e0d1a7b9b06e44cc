import { randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { generateServiceKey } from '@switchboard/identity';
import { createRedisConnection } from '@switchboard/redis';
import { freePort, type GroupProcess, spawnGroup } from '@switchboard/test-processes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseDockerfile, type Stage } from './support/dockerfile.ts';
import { readRepoFile, serviceDir } from './support/paths.ts';
import { buildRuntimeLayout, type RuntimeLayout } from './support/runtime-layout.ts';

const runtime = parseDockerfile(readRepoFile('infra/Dockerfile')).stages.at(-1) as Stage;
/** The runtime stage's `ENV`, as the container starts with it. */
const imageEnv: Record<string, string> = Object.fromEntries(
  runtime.instructions
    .filter((i) => i.keyword === 'ENV')
    .flatMap((i) => [...i.args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=(\S+)/g)].map((m) => [m[1], m[2]])),
);
const [uid, gid] = (runtime.instructions.findLast((i) => i.keyword === 'USER')?.args ?? '')
  .split(':')
  .map(Number);
/** The image's user when we may switch to it (the tests run as root in CI); else ourselves. */
const asUser = process.getuid?.() === 0 ? { uid, gid } : {};
/** Orders' signing key, and the trusted set (its own public key), as Compose or k8s would give them. */
const ORDERS_KEY = generateServiceKey({ service: 'orders', label: 'image-test' });

/** How long orders may take to be ready, or to exit when it cannot start, on a busy machine. */
const START_MS = 25_000;
const started: GroupProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((service) => service.kill()));
});

/**
 * Starts a service the way the container does: `/bin/sh /app/infra/entrypoint.sh` as the image's
 * user, with only the given environment, in its own process group (killed after the test).
 */
function startAsImageUser(layout: RuntimeLayout, env: Record<string, string>): GroupProcess {
  const service = spawnGroup({
    command: '/bin/sh',
    args: [join(layout.app, 'infra/entrypoint.sh')],
    cwd: layout.app,
    env: { PATH: `${layout.bin}:/usr/bin:/bin`, ...env },
    ...asUser,
    name: `${env.SWITCHBOARD_SERVICE} (entrypoint.sh)`,
  });
  started.push(service);
  return service;
}

describe('the image, run as its non-root user without an OTLP endpoint', () => {
  const namespace = `infra-${randomUUID().slice(0, 8)}`;
  const redis = createRedisConnection({
    url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    lazyConnect: true,
  });
  let layout: RuntimeLayout;
  /** The container's environment for orders: the image's ENV, what Compose or k8s would add. */
  let serviceEnv: Record<string, string>;
  /** The image's span file, with the layout's stand-in for /tmp in place of /tmp. */
  let spanFile: string;

  beforeAll(async () => {
    layout = buildRuntimeLayout(runtime);
    const imageSpanFile = imageEnv.SWITCHBOARD_SPAN_FILE;
    spanFile = join(layout.tmp, relative('/tmp', imageSpanFile ?? '/.switchboard/spans.jsonl'));
    serviceEnv = {
      ...imageEnv,
      ...(imageSpanFile ? { SWITCHBOARD_SPAN_FILE: spanFile } : {}),
      // Not the image's 8080: other processes on this machine may hold it.
      PORT: String(await freePort()),
      SWITCHBOARD_SERVICE: 'orders',
      SWITCHBOARD_SERVICE_KEY: JSON.stringify(ORDERS_KEY.privateKey),
      SWITCHBOARD_TRUSTED_KEYS: JSON.stringify({ keys: [ORDERS_KEY.publicKey] }),
      SWITCHBOARD_NAMESPACE: namespace,
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    };
  });

  afterAll(async () => {
    layout?.remove();
    await redis.connect().catch(() => {});
    const keys = await redis.keys(`*${namespace}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('sends spans to a file under /tmp, which every user may write (the rest of /app is read-only)', () => {
    expect(imageEnv.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(imageEnv.SWITCHBOARD_SPAN_FILE).toMatch(/^\/tmp\/.+/);
    expect(uid).toBeGreaterThan(0);
  });

  it('starts orders through the entry script and writes its spans as that user', async () => {
    const orders = startAsImageUser(layout, serviceEnv);
    await orders.waitForLine(/"orders ready"/, { timeoutMs: START_MS, describe: 'its ready line' });
    const card = await fetch(`http://127.0.0.1:${serviceEnv.PORT}/.well-known/agent-card.json`);
    expect(card.status).toBe(200);
    const code = await orders.stop({ graceMs: START_MS });
    expect(orders.stderr()).toBe('');
    expect(orders.stdout()).toContain('"orders ready"');
    expect(orders.stdout()).toContain('"orders stopped"');
    expect(code).toBe(0);
    const lines = readFileSync(spanFile, 'utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { service: string }).service)).toContain('orders');
    if (asUser.uid !== undefined) expect(statSync(spanFile).uid).toBe(asUser.uid);
  });

  it('cannot start with the default span file, under its own read-only folder', async () => {
    const { SWITCHBOARD_SPAN_FILE: _image, ...withoutSpanFile } = serviceEnv;
    const orders = startAsImageUser(layout, withoutSpanFile);
    expect(await orders.waitForExit({ timeoutMs: START_MS })).toBe(2);
    expect(orders.stderr()).toContain('orders failed to start');
    expect(orders.stderr()).toContain(`${join(layout.app, serviceDir('orders'), '.switchboard')}`);
  });
});
