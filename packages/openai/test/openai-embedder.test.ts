import { ToolRouter, Toolset } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIEmbedder } from '../src/index.ts';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from '../src/testing/index.ts';
import { shopTools } from './support/routing-tools.ts';

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('embedding recall over an OpenAI-compatible /embeddings endpoint', () => {
  /** A stand-in embedding model: each word counts towards its concept, so synonyms land together. */
  const CONCEPTS: Record<string, number> = {
    parcel: 0,
    package: 0,
    shipment: 0,
    box: 0,
    carrier: 0,
    courier: 0,
  };
  const embed = (text: string) => {
    const vector = [0, 0, 0, 0];
    for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
      const concept = CONCEPTS[word];
      if (concept !== undefined) vector[concept] = (vector[concept] ?? 0) + 1;
      else vector[3] = (vector[3] ?? 0) + 0.05;
    }
    return vector;
  };

  it('finds a tool the request names in other words, through the real openai client', async () => {
    server = await startOpenAICompatibleServer({
      model: new ScriptedModel({ turns: [] }),
      embed,
      apiKey: 'local-key',
    });
    const toolset = new Toolset(shopTools());
    const request = 'has the courier got my box yet';
    const lexical = await new ToolRouter().route({ request, toolset });
    const embedder = new OpenAIEmbedder({ model: 'concepts', apiKey: 'local-key', baseURL: server.baseURL });
    const decision = await new ToolRouter({ embedder }).route({ request, toolset });
    expect(lexical.outcome).not.toBe('routed');
    expect(lexical.candidates.map((candidate) => candidate.tool)).not.toContain('track_shipment');
    expect(decision.outcome).toBe('routed');
    expect(decision.candidates[0]).toMatchObject({ tool: 'track_shipment', source: 'embedding' });
  });

  it('says which endpoint failed when the embeddings endpoint refuses the key', async () => {
    server = await startOpenAICompatibleServer({
      model: new ScriptedModel({ turns: [] }),
      embed,
      apiKey: 'local-key',
    });
    const embedder = new OpenAIEmbedder({
      model: 'concepts',
      apiKey: 'wrong',
      baseURL: server.baseURL,
      maxRetries: 0,
    });
    const routing = new ToolRouter({ embedder }).route({
      request: 'where is my box',
      toolset: new Toolset(shopTools()),
    });
    await expect(routing).rejects.toMatchObject({ code: 'MODEL_AUTH' });
    await expect(routing).rejects.not.toThrow(/wrong/);
  });

  it("takes the scale its model's cosine is on for hybrid recall, and refuses one upside down", () => {
    const options = { model: 'concepts', apiKey: 'local-key', baseURL: 'http://127.0.0.1:1/v1' };
    const embedder = new OpenAIEmbedder({ ...options, similarity: { unrelated: 0.1, related: 0.6 } });
    expect(embedder.similarity).toEqual({ unrelated: 0.1, related: 0.6 });
    expect(new OpenAIEmbedder(options).similarity).toBeUndefined();
    expect(() => new OpenAIEmbedder({ ...options, similarity: { unrelated: 0.6, related: 0.1 } })).toThrow(
      /similarity: similarity.related must be above similarity.unrelated/,
    );
  });
});
