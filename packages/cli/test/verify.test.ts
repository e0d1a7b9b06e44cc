import { defineAgent, silentLogger } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { buildAgentCard, createAgentHandler } from '@switchboard/host';
import {
  type A2aHttpServer,
  a2aHttpInterfaces,
  createA2aHttpApp,
  startA2aHttpServer,
} from '@switchboard/host/http';
import { staticTokenAuthenticator } from '@switchboard/identity';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort, hasStack, switchboard } from './support.ts';

const servers: A2aHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** W3C traceparent headers the served agent received. */
const traceparents: string[] = [];

/** Serves an echo agent; `lie` declares bearer auth in the card without enforcing it. */
async function serve({ auth, lie = false }: { auth: boolean; lie?: boolean }) {
  // The card names the server's address, so it listens first (on a port the system picks: a chosen one
  // may be taken on a busy machine) and takes the agent's routes once the card is built.
  const outer = express();
  const server = await startA2aHttpServer({ app: outer });
  servers.push(server);
  const agent = defineAgent({ name: 'echo', instructions: 'Echo.' });
  const model = new ScriptedModel({ turns: [], whenExhausted: { text: 'pong' } });
  const card = buildAgentCard({
    agent,
    bearerAuth: auth || lie,
    interfaces: a2aHttpInterfaces({ baseUrl: server.url }),
  });
  const hosted = createAgentHandler({ agent, model, card, logger: silentLogger() });
  const app = createA2aHttpApp({
    requestHandler: hosted.requestHandler,
    card,
    logger: silentLogger(),
    ...(auth
      ? {
          auth: { authenticate: staticTokenAuthenticator({ operators: { 'tok-verify-0123456789': 'ops' } }) },
        }
      : {}),
  });
  outer.use((req, _res, next) => {
    const header = req.header('traceparent');
    if (header) traceparents.push(header);
    next();
  });
  outer.use(app);
  return server.url;
}

describe('switchboard cards verify', () => {
  it('proves a live agent: interfaces answer, streaming streams, auth is enforced (exit 0)', async () => {
    const url = await serve({ auth: true });
    const { code, stdout, stderr } = await switchboard([
      'cards',
      'verify',
      url,
      '--token',
      'tok-verify-0123456789',
    ]);
    expect(stdout).toMatch(/pass {2}interface +JSONRPC 1\.0 .*answers A2A requests/);
    expect(stdout).toMatch(/pass {2}interface +HTTP\+JSON 1\.0 /);
    expect(stdout).toMatch(/pass {2}auth .*refuses a caller without credentials/);
    expect(stdout).toMatch(/pass {2}streaming .*streamed its first event/);
    expect(code).toBe(0);
    expect(hasStack(stdout + stderr)).toBe(false);
  });

  it('prints the Jaeger link of the verification’s trace when Jaeger is configured', async () => {
    const url = await serve({ auth: false });
    traceparents.length = 0;
    const { code, stdout } = await switchboard(['cards', 'verify', url, '--no-send'], {
      SWITCHBOARD_JAEGER_URL: 'http://localhost:16686/',
    });
    expect(code).toBe(0);
    const traceId = /^Trace: http:\/\/localhost:16686\/trace\/([0-9a-f]{32})$/m.exec(stdout)?.[1];
    expect(traceId).toBeDefined();
    expect(traceparents.length).toBeGreaterThan(1);
    expect(new Set(traceparents.map((header) => header.split('-')[1]))).toEqual(new Set([traceId]));
  });

  it('fails a card that declares auth the agent does not enforce (exit 1)', async () => {
    const url = await serve({ auth: false, lie: true });
    const { code, stdout } = await switchboard(['cards', 'verify', url, '--no-send']);
    expect(stdout).toMatch(/FAIL {2}auth .*declares auth but answered a caller without credentials/);
    expect(code).toBe(1);
  });

  it('says plainly when nothing answers at the URL (exit 1), and refuses a non-URL (exit 2)', async () => {
    const down = await switchboard(['cards', 'verify', `http://127.0.0.1:${await closedPort()}`]);
    expect(down.stdout).toMatch(/FAIL {2}card .*could not fetch the card: .*ECONNREFUSED/);
    expect(down.code).toBe(1);
    const notUrl = await switchboard(['cards', 'verify', 'agent-cards/orders-desk']);
    expect(notUrl.stderr).toContain("give the agent's base URL (e.g. http://localhost:8080) or a card file");
    expect(notUrl.code).toBe(2);
  });
});
