import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OfflineModel } from '@switchboard/offline-model';
import { startOpenAICompatibleServer } from '@switchboard/openai/testing';
import { describe, expect, it } from 'vitest';
import { switchboard } from './support.ts';

const FIXTURES = fileURLToPath(new URL('../../eval/test/fixtures/cases/', import.meta.url));

describe('switchboard eval routing', () => {
  it('prints recall@k, the wrong-tool and clarification rates and prompt tokens per step, with and without the router', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-eval-routing-'));
    const run = await switchboard([
      'eval',
      'routing',
      '--cases',
      FIXTURES,
      '--top-k',
      '2',
      '--out',
      join(dir, 'routing.json'),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'Tool routing: 6 tools, 6 labelled requests of requests.yaml (4 expect tools, 1 clarify, 1 unsupported)',
    );
    expect(run.stdout).toContain('Chooser: offline-planner, the same model with and without the router.');
    expect(run.stdout).toMatch(/wrong-tool rate\s+\d+\.\d%\s+\d+\.\d%/);
    expect(run.stdout).toMatch(/clarification rate\s+\d+\.\d%\s+0\.0%/);
    expect(run.stdout).toMatch(/prompt tokens per step\s+\d+\s+\d+/);
    expect(run.stdout).toContain('recall@2: 100.0% (target ≥ 95%: met)');
    const report = JSON.parse(await readFile(join(dir, 'routing.json'), 'utf8'));
    expect(report.router).toEqual({ recallThreshold: 0.3, acceptThreshold: 0.4, topK: 2, recall: 'lexical' });
  });

  it('adds embedding recall from an OpenAI-compatible /embeddings endpoint with --embeddings', async () => {
    const embedded: string[] = [];
    const server = await startOpenAICompatibleServer({
      model: new OfflineModel(),
      apiKey: 'local-key',
      embed: (text) => {
        embedded.push(text);
        return [text.length % 7, text.split(' ').length, 1];
      },
    });
    try {
      const run = await switchboard(['eval', 'routing', '--cases', FIXTURES, '--embeddings', 'concepts'], {
        OPENAI_API_KEY: 'local-key',
        OPENAI_BASE_URL: server.baseURL,
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('hybrid recall (concepts weighing 0.6, BM25 the rest)');
      // Every tool description was embedded once, and every request routed.
      expect(embedded).toEqual(expect.arrayContaining(['where is my parcel, it has not come']));
      expect(embedded.filter((text) => text.startsWith('track return:'))).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('runs the same evaluation with a model behind an OpenAI-compatible endpoint choosing (--model)', async () => {
    const server = await startOpenAICompatibleServer({ model: new OfflineModel(), apiKey: 'local-key' });
    try {
      const run = await switchboard(
        ['eval', 'routing', '--cases', FIXTURES, '--model', 'local-chooser', '--top-k', '2', '--json'],
        { OPENAI_API_KEY: 'local-key', OPENAI_BASE_URL: server.baseURL },
      );
      expect(run.code).toBe(0);
      const report = JSON.parse(run.stdout);
      expect(report.model).toBe('local-chooser');
      // Every model step of both arms went over HTTP to the endpoint, named as --model said.
      const steps = report.withRouter.modelSteps + report.withoutRouter.modelSteps;
      expect(steps).toBeGreaterThan(0);
      expect(server.requests).toHaveLength(steps);
      expect(server.requests.every((request) => request.model === 'local-chooser')).toBe(true);
      // With the router the endpoint was offered at most two tools a step, without it all six.
      const offered = server.requests.map((request) => request.tools?.length ?? 0);
      expect(Math.max(...offered)).toBe(6);
      expect(offered.filter((count) => count <= 2)).toHaveLength(report.withRouter.modelSteps);
      expect(report.recallAtK).toBe(1);
      expect(report.withRouter.wrongToolRate).toBeLessThanOrEqual(report.withoutRouter.wrongToolRate);
    } finally {
      await server.close();
    }
  });

  it('says what to set when --model names a model and there is no API key or endpoint', async () => {
    const run = await switchboard(['eval', 'routing', '--cases', FIXTURES, '--model', 'gpt-4.1-mini'], {
      OPENAI_API_KEY: '',
      OPENAI_BASE_URL: '',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('The model "gpt-4.1-mini" needs OPENAI_API_KEY');
    expect(run.stdout).toBe('');
  });

  it('stops, without printing the key, when the endpoint refuses it', async () => {
    const server = await startOpenAICompatibleServer({ model: new OfflineModel(), apiKey: 'local-key' });
    try {
      const run = await switchboard(['eval', 'routing', '--cases', FIXTURES, '--model', 'local-chooser'], {
        OPENAI_API_KEY: 'sk-wrong-key-123',
        OPENAI_BASE_URL: server.baseURL,
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/refused the API key/);
      expect(`${run.stdout}${run.stderr}`).not.toContain('sk-wrong-key-123');
    } finally {
      await server.close();
    }
  });

  it('runs the held-out requests with --requests holdout, and names the set it ran', async () => {
    const run = await switchboard(['eval', 'routing', '--requests', 'holdout', '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.catalogue.requestsFile).toBe('holdout.yaml');
    expect(report.catalogue.requests).toBeGreaterThan(0);
    const missing = await switchboard(['eval', 'routing', '--cases', FIXTURES, '--requests', 'holdout']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No labelled requests at');
  });

  it('routes with the embedding model that runs in the process with --embeddings local, no endpoint needed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-eval-routing-'));
    const out = join(dir, 'routing.json');
    const hybrid = await switchboard(
      ['eval', 'routing', '--cases', FIXTURES, '--embeddings', 'local', '--out', out],
      {
        OPENAI_API_KEY: '',
      },
    );
    expect(hybrid.code).toBe(0);
    expect(hybrid.stdout).toContain(
      'hybrid recall (universal-sentence-encoder-lite weighing 0.6, BM25 the rest)',
    );
    const report = JSON.parse(await readFile(out, 'utf8'));
    expect(report.router).toMatchObject({
      recall: 'hybrid',
      acceptThreshold: 0.45,
      embeddingModel: 'universal-sentence-encoder-lite',
    });
    expect(report.recallAtK).toBe(1);
    const alone = await switchboard([
      'eval',
      'routing',
      '--cases',
      FIXTURES,
      '--embeddings',
      'local',
      '--recall',
      'embedding',
    ]);
    expect(alone.code).toBe(0);
    expect(alone.stdout).toContain('embedding recall (universal-sentence-encoder-lite)');
  });

  it('refuses --recall without embeddings or with an unknown mode, saying what to pass', async () => {
    const bare = await switchboard(['eval', 'routing', '--cases', FIXTURES, '--recall', 'hybrid']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('--recall hybrid needs embeddings: add --embeddings local');
    const unknown = await switchboard(['eval', 'routing', '--cases', FIXTURES, '--recall', 'semantic']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--recall semantic must be one of lexical, embedding, hybrid');
  });

  it('says what to set when --embeddings has no API key', async () => {
    const run = await switchboard(['eval', 'routing', '--cases', FIXTURES, '--embeddings', 'concepts'], {
      OPENAI_API_KEY: '',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--embeddings needs OPENAI_API_KEY');
  });

  it('refuses thresholds out of range, saying which and how to fix them', async () => {
    const run = await switchboard(['eval', 'routing', '--cases', FIXTURES, '--accept-threshold', '1.5']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('acceptThreshold 1.5 must be a number from 0 to 1');
  });
});
