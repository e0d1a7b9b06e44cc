import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkCard } from '@switchboard/cards';
import { describe, expect, it } from 'vitest';
import { AGENT_CARDS_DIR, CARD_PORTS, renderAgentCardFiles } from '../src/agent-cards.ts';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const stale = (path: string) => `${path} is stale: run \`pnpm cards:generate\` and commit the result`;
const files = renderAgentCardFiles();
const cardFiles = files.filter((file) => !file.path.endsWith('.warnings.json'));
const AGENTS = ['comms', 'inventory', 'orders', 'supervisor'];

describe('the committed agent cards', () => {
  it('cover the four agents of the system, in both card versions', () => {
    const paths = new Set(files.map((file) => file.path));
    for (const agent of AGENTS) {
      expect(paths).toContain(`${AGENT_CARDS_DIR}/${agent}/card.v1.0.json`);
      expect(paths).toContain(`${AGENT_CARDS_DIR}/${agent}/card.v0.3.json`);
    }
    expect(new Set(files.map((file) => file.path.split('/')[1]))).toEqual(new Set(AGENTS));
  });

  it.each(files.map((file) => [file.path, file] as const))(
    '%s matches what the agents generate',
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

  it.each(cardFiles.map((file) => [file.path, file] as const))('%s passes the card checker', (path, file) => {
    const check = checkCard(JSON.parse(file.content));
    expect(check.version).toBe(path.endsWith('card.v1.0.json') ? '1.0' : '0.3');
    expect(check.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    expect(check.valid).toBe(true);
  });

  it('name each service’s default address and queue, the same on every machine', () => {
    const byPath = new Map(files.map((file) => [file.path, JSON.parse(file.content)]));
    for (const agent of AGENTS) {
      const base = `http://127.0.0.1:${CARD_PORTS[agent as keyof typeof CARD_PORTS]}`;
      expect(byPath.get(`${AGENT_CARDS_DIR}/${agent}/card.v1.0.json`)).toMatchObject({
        name: agent,
        version: '0.1.0',
        supportedInterfaces: [
          { url: `${base}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
          { url: `${base}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
          {
            url: `bullmq://queue/a2a.${agent}?prefix=%7Bswitchboard%3A${agent}%7D`,
            protocolBinding: 'urn:switchboard:a2a:binding:bullmq:v1',
            protocolVersion: '1.0',
          },
          { protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
          { protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
        ],
      });
      expect(byPath.get(`${AGENT_CARDS_DIR}/${agent}/card.v0.3.json`)).toMatchObject({
        protocolVersion: '0.3.0',
        name: agent,
        url: `${base}/a2a/jsonrpc`,
      });
    }
    expect(renderAgentCardFiles()).toEqual(files);
  });

  it('give the supervisor one skill that delegates to every worker skill', () => {
    const supervisor = JSON.parse(
      files.find((file) => file.path === `${AGENT_CARDS_DIR}/supervisor/card.v1.0.json`)?.content ?? '{}',
    );
    expect(supervisor.skills.map((skill: { id: string }) => skill.id)).toEqual(['customer-support']);
    const workerSkills = ['comms', 'inventory', 'orders'].flatMap((agent) => {
      const card = JSON.parse(
        files.find((file) => file.path === `${AGENT_CARDS_DIR}/${agent}/card.v1.0.json`)?.content ?? '{}',
      );
      return card.skills.map((skill: { id: string }) => `${agent}_${skill.id.replace(/-/g, '_')}`);
    });
    const manifest = supervisor.capabilities.extensions.find(
      (extension: { uri: string }) => extension.uri === 'urn:switchboard:a2a:extension:permissions:v1',
    );
    expect(manifest.params.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(
      workerSkills.sort(),
    );
  });
});
