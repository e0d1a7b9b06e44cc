/**
 * Regenerates the committed agent cards (`agent-cards/<agent>/…` at the repository root), like a
 * lockfile: run `pnpm cards:generate` after changing an agent, and commit the result. A test fails
 * while the committed files differ from what this writes.
 */
import { mkdir, readdir, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENT_CARDS_DIR, renderAgentCardFiles } from './agent-cards.ts';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const files = renderAgentCardFiles();
const expected = new Set(files.map((file) => file.path));

for (const file of files) {
  const target = join(repoRoot, file.path);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, file.content);
  console.log(`wrote ${file.path}`);
}

// A warnings file that is no longer produced, or the cards of an agent that is gone, are stale too.
const cardsDir = join(repoRoot, AGENT_CARDS_DIR);
for (const entry of await readdir(cardsDir, { withFileTypes: true })) {
  if (!entry.isDirectory()) continue;
  const agentFiles = await readdir(join(cardsDir, entry.name));
  for (const name of agentFiles) {
    const path = `${AGENT_CARDS_DIR}/${entry.name}/${name}`;
    if (name.startsWith('card.') && !expected.has(path)) {
      await rm(join(repoRoot, path));
      console.log(`removed ${path}`);
    }
  }
  // An agent that is gone leaves no empty folder behind.
  if ((await readdir(join(cardsDir, entry.name))).length === 0) await rmdir(join(cardsDir, entry.name));
}
