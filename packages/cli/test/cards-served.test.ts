import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentCard } from '@a2a-js/sdk';
import { defineAgent, defineTool, silentLogger } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { cardSigner } from '@switchboard/cards';
import { type AgentHost, hostAgent } from '@switchboard/host';
import { generateServiceKey } from '@switchboard/identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { switchboard } from './support.ts';

const echo = generateServiceKey({ service: 'echo' });
const stranger = generateServiceKey({ service: 'stranger' });
let host: AgentHost;
let dir: string;
let trustedFile: string;
let strangerFile: string;

beforeAll(async () => {
  host = await hostAgent({
    agent: defineAgent({
      name: 'echo',
      description: 'Echoes.',
      instructions: 'Echo.',
      tools: [
        defineTool({
          name: 'echo_back',
          summary: 'Say the text back.',
          whenToUse: 'Always.',
          input: z.object({ text: z.string() }),
          risk: 'read',
          handler: ({ text }) => ({ text }),
        }),
      ],
    }),
    model: new ScriptedModel({ turns: [], whenExhausted: { text: 'pong' } }),
    http: {},
    signCard: cardSigner({ key: echo.privateKey }),
    logger: silentLogger(),
  });
  await host.start();
  dir = await mkdtemp(join(tmpdir(), 'switchboard-signed-'));
  trustedFile = join(dir, 'trusted-keys.json');
  strangerFile = join(dir, 'stranger-keys.json');
  await writeFile(trustedFile, JSON.stringify({ keys: [echo.publicKey] }));
  await writeFile(strangerFile, JSON.stringify({ keys: [stranger.publicKey] }));
});
afterAll(async () => {
  await host.close();
  await rm(dir, { recursive: true, force: true });
});

/** A server on loopback that answers every request with a 301 to `location`. */
async function redirector(location: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(301, { location }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('switchboard cards check <url>', () => {
  it('refuses a redirect, naming where it leads; follows it with --follow-redirects, saying so', async () => {
    const final = `${host.url}/.well-known/agent-card.json`;
    const { url, server } = await redirector(final);
    try {
      const refused = await switchboard(['cards', 'check', url, '--a2a-version', '1.0']);
      expect(refused.code).toBe(2);
      expect(refused.stdout).toContain(
        `${url}/.well-known/agent-card.json: cannot be read: the server redirects (HTTP 301) to ${final}; check that URL, or pass --follow-redirects`,
      );
      const followed = await switchboard(['cards', 'check', url, '--follow-redirects']);
      expect(followed.code).toBe(0);
      expect(followed.stdout).toContain(
        `${url}/.well-known/agent-card.json redirected (HTTP 301) to ${final}`,
      );
      expect(followed.stdout).toContain(`${final}:`);
      expect(followed.stdout).toMatch(/A2A-Version 1\.0 +→ the v1\.0 card, valid/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('fetches the card three ways and says which shape each request gets, then checks each', async () => {
    const { code, stdout } = await switchboard(['cards', 'check', host.url]);
    expect(stdout).toContain(`${host.url}/.well-known/agent-card.json:`);
    expect(stdout).toMatch(/no A2A-Version +→ the hybrid card \(v1\.0 with the v0\.3 fields\), valid/);
    expect(stdout).toMatch(/A2A-Version 1\.0 +→ the v1\.0 card, valid/);
    expect(stdout).toMatch(/A2A-Version 0\.3 +→ the v0\.3 card, valid/);
    expect(code).toBe(0);

    const json = await switchboard(['cards', 'check', '--json', host.url]);
    const { ok, results } = JSON.parse(json.stdout) as {
      ok: boolean;
      results: { a2aVersion: string; shape: string; check: { valid: boolean } }[];
    };
    expect(ok).toBe(true);
    expect(results.map((result) => [result.a2aVersion, result.shape, result.check.valid])).toEqual([
      ['', 'hybrid', true],
      ['1.0', '1.0', true],
      ['0.3', '0.3', true],
    ]);

    const one = await switchboard(['cards', 'check', '--a2a-version', '1.0', host.url]);
    expect(one.stdout).toMatch(/agent-card\.json: v1\.0 card, valid/);
  });

  it('reports a version the server refuses as not served, and other failures as errors', async () => {
    const { code, stdout } = await switchboard(['cards', 'check', `${host.url}/nowhere/card.json`]);
    expect(stdout).toMatch(/no A2A-Version +→ error: the server answered HTTP 404/);
    expect(code).toBe(2);
  });
});

describe('switchboard cards verify --trusted-keys', () => {
  it('passes the signature of a card signed by a trusted key, and says who signed it without keys', async () => {
    const trusted = await switchboard([
      'cards',
      'verify',
      host.url,
      '--no-send',
      '--trusted-keys',
      trustedFile,
    ]);
    expect(trusted.stdout).toMatch(/pass {2}signature .*signed by "echo:[^"]+", a trusted key/);
    // Which form each signature is over, and whether it covers the security requirements.
    expect(trusted.stdout).toMatch(
      /#1 by "echo:[^"]+" over RFC 8785 of the card as served, covering the security requirements/,
    );
    expect(trusted.code).toBe(0);

    const without = await switchboard(['cards', 'verify', host.url, '--no-send']);
    expect(without.stdout).toMatch(
      /skip {2}signature .*signed by "echo:[^"]+", not verified: give the keys you trust/,
    );
    expect(without.code).toBe(0);
  });

  it('fails a card signed by a key the user does not trust, a tampered card file and an unsigned one', async () => {
    const untrusted = await switchboard([
      'cards',
      'verify',
      host.url,
      '--no-send',
      '--trusted-keys',
      strangerFile,
    ]);
    expect(untrusted.stdout).toMatch(/FAIL {2}signature .*untrusted-key: no trusted key has the kid "echo:/);
    expect(untrusted.code).toBe(1);

    const signed = AgentCard.toJSON(host.card) as Record<string, unknown>;
    const tampered = join(dir, 'tampered.json');
    await writeFile(tampered, JSON.stringify({ ...signed, description: 'Refunds everything.' }));
    const changed = await switchboard(['cards', 'verify', tampered, '--trusted-keys', trustedFile]);
    expect(changed.stdout).toMatch(
      /FAIL {2}signature .*bad-signature: the signature by "echo:[^"]+" does not match the card/,
    );
    expect(changed.code).toBe(1);

    const unsignedFile = join(dir, 'unsigned.json');
    const { signatures: _signatures, ...unsigned } = signed;
    await writeFile(unsignedFile, JSON.stringify(unsigned));
    const plain = await switchboard(['cards', 'verify', unsignedFile, '--trusted-keys', trustedFile]);
    expect(plain.stdout).toMatch(/FAIL {2}signature .*unsigned: the card carries no signature/);
    expect(plain.code).toBe(1);

    const badKeys = await switchboard([
      'cards',
      'verify',
      unsignedFile,
      '--trusted-keys',
      join(dir, 'none.json'),
    ]);
    expect(badKeys.stderr).toMatch(/--trusted-keys: trusted keys: .*none\.json cannot be read/);
    expect(badKeys.code).toBe(2);
  });
});
