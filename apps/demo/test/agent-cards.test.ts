import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AGENT_CARDS_DIR, DEFAULT_SERVICE_BASE_URL, renderAgentCardFiles } from '../src/agent-cards.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const stale = (path: string) => `${path} is stale: run \`pnpm cards:generate\` and commit the result`;
const files = renderAgentCardFiles();

describe('the committed agent cards', () => {
  it.each(files.map((file) => [file.path, file] as const))(
    '%s matches what the agent generates',
    (path, file) => {
      const target = join(repoRoot, path);
      expect(existsSync(target), stale(path)).toBe(true);
      expect(readFileSync(target, 'utf8'), stale(path)).toBe(file.content);
    },
  );

  it('has no card file the generator no longer writes', () => {
    const generated = new Set(files.map((file) => file.path));
    const committed = readdirSync(join(repoRoot, AGENT_CARDS_DIR), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) =>
        readdirSync(join(repoRoot, AGENT_CARDS_DIR, entry.name))
          .filter((name) => name.startsWith('card.'))
          .map((name) => `${AGENT_CARDS_DIR}/${entry.name}/${name}`),
      );
    for (const path of committed) expect(generated.has(path), stale(path)).toBe(true);
  });

  it('are machine-independent and list both shapes of the orders desk', () => {
    const byPath = new Map(files.map((file) => [file.path, JSON.parse(file.content)]));
    const v1 = byPath.get('agent-cards/orders-desk/card.v1.0.json');
    const v03 = byPath.get('agent-cards/orders-desk/card.v0.3.json');
    expect(v1).toMatchObject({
      name: 'orders-desk',
      supportedInterfaces: [
        {
          url: `${DEFAULT_SERVICE_BASE_URL}/a2a/jsonrpc`,
          protocolBinding: 'JSONRPC',
          protocolVersion: '1.0',
        },
        { url: `${DEFAULT_SERVICE_BASE_URL}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        { url: expect.stringMatching(/^bullmq:\/\/queue\//), protocolVersion: '1.0' },
        { protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
        { protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
      ],
    });
    expect(v03).toMatchObject({ protocolVersion: '0.3.0', url: `${DEFAULT_SERVICE_BASE_URL}/a2a/jsonrpc` });
    expect(renderAgentCardFiles()).toEqual(files);
  });
});
