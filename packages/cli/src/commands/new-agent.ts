import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { EXIT, type Output } from '../io/output.ts';

/** Where `switchboard new agent` adds to a team module: the lines the scaffold's `team.ts` has. */
export const MARKERS = {
  imports: '// switchboard new agent: imports',
  workers: '// switchboard new agent: workers',
} as const;

/** Options of {@link newAgentCommand}. */
export interface NewAgentOptions {
  /** The worker's name: lower-case letters, digits and `-` (its agent's, service's and queue's). */
  name: string;
  /** The team's folder or its module (default: `team.ts` in the current folder). */
  team?: string | undefined;
  cwd?: string;
  output: Output;
}

const camel = (name: string) => name.replace(/[-_]+([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A new worker's file: an agent with one read tool, to make its own. */
function agentFile(name: string): string {
  const tool = `${name.replace(/-/g, '_')}_lookup`;
  return `// The ${name} worker: its instructions, its tools and their permissions.
import { defineAgent, defineTool } from '@switchboard/agent';
import { defineWorker } from '@switchboard/team';
import { z } from 'zod';

const lookup = defineTool({
  name: '${tool}',
  summary: 'Look something up for the user.',
  whenToUse: 'The user asks about ${name}.',
  input: z.object({ query: z.string().trim().min(1).describe('What to look up') }),
  // read: runs when the model asks; write: changes something; dangerous: waits for an operator.
  risk: 'read',
  handler: ({ query }, { principal }) => ({ query, for: principal?.id, answer: 'Nothing is known yet.' }),
});

export const ${camel(name)}Worker = defineWorker({
  name: '${name}',
  agent: defineAgent({
    name: '${name}',
    description: 'Answers questions about ${name}.',
    instructions: 'You answer questions about ${name} from what your tools return, and nothing else.',
    tools: [lookup],
  }),
});
`;
}

/**
 * `switchboard new agent <name>`: writes `agents/<name>.ts` beside the team module (a worker with one
 * read tool) and adds it to the team at the scaffold's marker lines; without them, says the two lines
 * to add. Refuses a bad name or an existing file (exit 2), and writes nothing then.
 */
export async function newAgentCommand({
  name,
  team = 'team.ts',
  cwd = process.cwd(),
  output,
}: NewAgentOptions): Promise<number> {
  if (!/^[a-z][a-z0-9-]{0,39}$/.test(name)) {
    output.err(
      `"${name}" is not a worker name: use lower-case letters, digits and -, starting with a letter (e.g. weather); nothing was written.`,
    );
    return EXIT.usage;
  }
  const given = resolve(cwd, team);
  const module = existsSync(given) && !given.endsWith('.ts') ? join(given, 'team.ts') : given;
  if (!existsSync(module)) {
    output.err(
      `No team module at ${relative(cwd, module) || module}: run this in the team's folder (the one "switchboard new team" made), or pass --team <dir-or-module>; nothing was written.`,
    );
    return EXIT.usage;
  }
  const file = join(dirname(module), 'agents', `${name}.ts`);
  if (existsSync(file)) {
    output.err(`${relative(cwd, file)} already exists: pick another name; nothing was written.`);
    return EXIT.usage;
  }
  const source = await readFile(module, 'utf8');
  const importLine = `import { ${camel(name)}Worker } from './agents/${name}.ts';`;
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, agentFile(name));
  output.out(`Wrote ${relative(cwd, file)}: the ${name} worker, with one read tool to make your own.`);
  if (source.includes(MARKERS.imports) && source.includes(MARKERS.workers)) {
    const workerIndent = /^([ \t]*)\/\/ switchboard new agent: workers/m.exec(source)?.[1] ?? '    ';
    await writeFile(
      module,
      source
        .replace(MARKERS.imports, `${importLine}\n${MARKERS.imports}`)
        .replace(
          `${workerIndent}${MARKERS.workers}`,
          `${workerIndent}${camel(name)}Worker,\n${workerIndent}${MARKERS.workers}`,
        ),
    );
    output.out(`Added it to the team in ${relative(cwd, module)}.`);
  } else {
    output.out(`Add it to the team in ${relative(cwd, module)}:`);
    output.out(`  ${importLine}`);
    output.out(`  workers: [ …, ${camel(name)}Worker ]`);
  }
  return EXIT.ok;
}
