import { mkdtemp, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { closedPort, hasStack, switchboard } from './support.ts';

const realWorld = fileURLToPath(new URL('../../cards/test/fixtures/cards/real-world/', import.meta.url));
let dir: string;
let unreachable: string;

const v1 = {
  name: 'Echo',
  description: 'Echoes',
  supportedInterfaces: [
    { url: 'https://a.example/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    { url: 'https://a.example/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
  ],
  version: '1.2.0',
  capabilities: { streaming: true, pushNotifications: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [
    { id: 'echo', name: 'Echo', description: 'Echo back', tags: ['echo'] },
    { id: 'shout', name: 'Shout', description: 'Echo back loudly', tags: ['echo'] },
  ],
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchboard-cards-'));
  unreachable = `http://127.0.0.1:${await closedPort()}/`;
  await writeFile(join(dir, 'echo.v1.json'), JSON.stringify(v1));
  await writeFile(join(dir, 'broken.json'), '{"name": "Echo",');
  await writeFile(join(dir, 'fewer-skills.json'), JSON.stringify({ ...v1, skills: v1.skills.slice(0, 1) }));
  await writeFile(
    join(dir, 'queue-only.json'),
    JSON.stringify({
      ...v1,
      supportedInterfaces: [
        {
          url: 'bullmq://queue/echo?prefix=x',
          protocolBinding: 'urn:switchboard:a2a:binding:bullmq:v1',
          protocolVersion: '1.0',
        },
      ],
    }),
  );
  await writeFile(join(dir, 'huge.json'), '');
  await truncate(join(dir, 'huge.json'), 50 * 1024 * 1024);
});

describe('switchboard cards check', () => {
  it('passes a valid card with exit 0', async () => {
    const { code, stdout } = await switchboard(['cards', 'check', join(dir, 'echo.v1.json')]);
    expect(stdout).toContain('echo.v1.json: v1.0 card, valid (0 errors');
    expect(code).toBe(0);
  });

  it('names each problem of real-world cards with its path and a hint, and exits 1', async () => {
    const { code, stdout, stderr } = await switchboard(['cards', 'check', realWorld]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/adk_currency_agent__src__currency_agent__agent_card\.json: v0\.3 card/);
    expect(stdout).toMatch(/error\s+\$\.protocolVersion\s+.*required/);
    expect(stdout).toContain('hint: ');
    expect(stdout).toMatch(/7 cards checked: \d+ valid, \d+ with errors\./);
    expect(hasStack(stdout + stderr)).toBe(false);
  });

  it('prints machine-readable results with --json', async () => {
    const { code, stdout } = await switchboard(['cards', 'check', '--json', join(dir, 'echo.v1.json')]);
    expect(code).toBe(0);
    const parsed = JSON.parse(stdout) as {
      ok: boolean;
      results: { check: { version: string; valid: boolean } }[];
    };
    expect(parsed.ok).toBe(true);
    expect(parsed.results[0]?.check).toMatchObject({ version: '1.0', valid: true });
  });

  it.each([
    [
      'a file that is not JSON',
      () => join(dir, 'broken.json'),
      /broken\.json: cannot be read: not JSON \(.+\); a card is one JSON object/,
    ],
    [
      'a 50 MB file',
      () => join(dir, 'huge.json'),
      /huge\.json: cannot be read: the file is 50\.0 MB; a card is a small JSON document and the limit is 5\.0 MB/,
    ],
    ['a missing file', () => join(dir, 'nope.json'), /nope\.json: cannot be read: no such file or directory/],
    [
      'an unreachable URL',
      () => unreachable,
      /no A2A-Version +→ error: could not fetch the card: .*ECONNREFUSED/,
    ],
  ])('refuses %s with a clear message, exit 2, no stack trace', async (_label, target, message) => {
    const { code, stdout, stderr } = await switchboard(['cards', 'check', target()]);
    expect(stdout + stderr).toMatch(message);
    expect(code).toBe(2);
    expect(hasStack(stdout + stderr)).toBe(false);
  });

  it('flags a card that claims an unknown protocol version (exit 1)', async () => {
    const card = join(dir, 'v9.json');
    await writeFile(
      card,
      JSON.stringify({
        ...v1,
        supportedInterfaces: undefined,
        protocolVersion: '9.9',
        url: 'https://a.example/rpc',
      }),
    );
    const { code, stdout } = await switchboard(['cards', 'check', card]);
    expect(stdout).toContain('$.protocolVersion is "9.9", not an A2A version a v0.3-shaped card can have');
    expect(code).toBe(1);
  });

  it('refuses an unknown forced version with a usage error', async () => {
    const { code, stderr } = await switchboard([
      'cards',
      'check',
      '--version',
      '2.0',
      join(dir, 'echo.v1.json'),
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('Allowed choices are 1.0, 0.3');
  });
});

describe('switchboard cards convert', () => {
  it('prints the v0.3 form of a v1.0 card', async () => {
    const { code, stdout } = await switchboard([
      'cards',
      'convert',
      '--to',
      '0.3',
      join(dir, 'echo.v1.json'),
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      protocolVersion: '0.3.0',
      url: 'https://a.example/a2a/jsonrpc',
      preferredTransport: 'JSONRPC',
    });
  });

  it('refuses a card no v0.3 client could use, saying how to fix it (exit 1)', async () => {
    const { code, stderr } = await switchboard([
      'cards',
      'convert',
      '--to',
      '0.3',
      join(dir, 'queue-only.json'),
    ]);
    expect(code).toBe(1);
    expect(stderr).toContain('no interface a v0.3 client can use');
  });

  it('needs --to', async () => {
    const { code, stderr } = await switchboard(['cards', 'convert', join(dir, 'echo.v1.json')]);
    expect(code).toBe(2);
    expect(stderr).toContain("required option '--to <version>' not specified");
  });
});

describe('switchboard cards diff', () => {
  it('finds no change between a v1.0 card and its own v0.3 form', async () => {
    const converted = join(dir, 'echo.v03.json');
    await switchboard(['cards', 'convert', '--to', '0.3', '--out', converted, join(dir, 'echo.v1.json')]);
    const { code, stdout } = await switchboard(['cards', 'diff', join(dir, 'echo.v1.json'), converted]);
    expect(stdout).toContain('No changes that matter to clients.');
    expect(code).toBe(0);
  });

  it('marks a removed skill as breaking, and fails with --fail-on-breaking', async () => {
    const args = ['cards', 'diff', join(dir, 'echo.v1.json'), join(dir, 'fewer-skills.json')];
    const plain = await switchboard(args);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/BREAKING\s+skill-removed/);
    const strict = await switchboard([...args, '--fail-on-breaking']);
    expect(strict.code).toBe(1);
  });
});

describe('switchboard itself', () => {
  it('answers an unknown command with usage help and exit 2', async () => {
    const { code, stderr } = await switchboard(['cards', 'frobnicate']);
    expect(code).toBe(2);
    expect(stderr).toContain("unknown command 'frobnicate'");
  });
});
