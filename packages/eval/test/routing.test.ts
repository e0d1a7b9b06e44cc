import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentError, type ChatModel, type ChatRequest } from '@switchboard/agent';
import { OfflineModel } from '@switchboard/offline-model';
import { describe, expect, it } from 'vitest';
import { expectedTools, formatRoutingReport, loadRoutingCatalogue, runRoutingEval } from '../src/index.ts';

const REPO_CATALOGUE = fileURLToPath(
  new URL('../../../examples/customer-service/evals/routing/', import.meta.url),
);
const FIXTURE = fileURLToPath(new URL('./fixtures/cases/routing/', import.meta.url));

describe('the routing catalogue', () => {
  it('holds hundreds of tools with confusable ones, and labelled requests of every kind', async () => {
    const { tools, requests } = await loadRoutingCatalogue({ dir: REPO_CATALOGUE });
    const names = tools.map((tool) => tool.name);
    expect(tools.length).toBeGreaterThanOrEqual(200);
    expect(requests.length).toBeGreaterThanOrEqual(150);
    expect(names.filter((name) => name.startsWith('lookup_')).length).toBeGreaterThanOrEqual(3);
    expect(names).toEqual(
      expect.arrayContaining(['cancel_order', 'cancel_order_item', 'track_shipment', 'track_return']),
    );
    const labels = requests.map((request) => request.expect);
    expect(labels.filter((label) => label === 'clarify').length).toBeGreaterThanOrEqual(10);
    expect(labels.filter((label) => label === 'unsupported').length).toBeGreaterThanOrEqual(10);
    // Requests are written as customers write them, not copied from the tool descriptions.
    const texts = new Set(
      tools.flatMap((tool) => [tool.summary, tool.whenToUse].map((text) => text.toLowerCase())),
    );
    expect(requests.filter((request) => texts.has(request.text.toLowerCase()))).toEqual([]);
  });

  it('refuses a catalogue whose requests name a tool it lacks, or that defines a tool twice', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'routing-catalogue-'));
    await mkdir(join(dir, 'tools'));
    const tool =
      '- { name: get_order, summary: Look up an order., when: The customer asks about an order., params: [] }\n';
    await writeFile(join(dir, 'tools', 'a.yaml'), tool + tool);
    await writeFile(join(dir, 'requests.yaml'), '- { text: "where is it", expect: track_parcel }\n');
    const loading = loadRoutingCatalogue({ dir, cwd: dir });
    await expect(loading).rejects.toMatchObject({ code: 'INVALID_CASES' });
    await expect(loading).rejects.toThrow(/tool get_order is defined twice/);
    await expect(loading).rejects.toThrow(/expects track_parcel, which the catalogue lacks/);
  });
});

describe('runRoutingEval', () => {
  it('compares the same chooser with and without the router on the same requests', async () => {
    const catalogue = await loadRoutingCatalogue({ dir: FIXTURE });
    const report = await runRoutingEval({ catalogue, model: () => new OfflineModel(), router: { topK: 2 } });
    expect(report.catalogue).toMatchObject({ tools: 6, requests: 6, clarify: 1, unsupported: 1 });
    expect(report.results.withRouter.map((result) => result.text)).toEqual(
      report.results.withoutRouter.map((result) => result.text),
    );
    // The model sees at most two declarations a step with the router, all six without.
    expect(report.withRouter.toolTokensPerStep).toBeLessThan(report.withoutRouter.toolTokensPerStep / 2);
    expect(report.promptTokenReduction).toBeGreaterThan(0);
    const flight = report.results.withRouter.find((result) => result.text.startsWith('book me a flight'));
    expect(flight).toMatchObject({ outcome: 'unsupported', called: [], wrongTool: false });
    const hello = report.results.withRouter.find((result) => result.text === 'hello?');
    expect(hello).toMatchObject({ outcome: 'clarify', called: [] });
    for (const result of report.results.withRouter.filter((r) => r.expected.length > 0)) {
      expect(result.recalled, result.text).toBe(true);
    }
    expect(report.recallAtK).toBe(1);
    expect(report.withRouter.wrongToolRate).toBeLessThanOrEqual(report.withoutRouter.wrongToolRate);
  });

  it('counts apart the requests an endpoint rejects (more tools than it takes) and leaves them out of the rates', async () => {
    const catalogue = await loadRoutingCatalogue({ dir: FIXTURE });
    /** An endpoint that takes at most four tools a request, as the OpenAI API takes at most 128. */
    const limited = (): ChatModel => {
      const inner = new OfflineModel();
      const check = (request: ChatRequest) => {
        if ((request.tools?.length ?? 0) > 4)
          throw new AgentError('MODEL_BAD_REQUEST', { message: 'at most 4 tools' });
      };
      return {
        modelId: 'four-tools-at-most',
        provider: inner.provider,
        capabilities: inner.capabilities,
        generate: async (request) => {
          check(request);
          return inner.generate(request);
        },
        stream: (request) => {
          check(request);
          return inner.stream(request);
        },
      };
    };
    const report = await runRoutingEval({ catalogue, model: limited, router: { topK: 2 } });
    // Offered all six tools, the endpoint rejects every request that reaches it; offered two, none.
    expect(report.withoutRouter.modelErrors).toBe(catalogue.requests.length);
    expect(report.withoutRouter).toMatchObject({ modelSteps: 0, wrongToolRate: 0, rightToolRate: 0 });
    expect(report.withRouter.modelErrors).toBe(0);
    expect(report.withRouter.rightToolRate).toBeGreaterThan(0);
    expect(
      report.results.withoutRouter.every((result) => result.modelError?.startsWith('MODEL_BAD_REQUEST')),
    ).toBe(true);
    expect(formatRoutingReport(report)).toContain(
      `the model endpoint rejected ${catalogue.requests.length} requests without the router`,
    );
  });

  it('reads a list of tools as a request that needs each of them', () => {
    expect(expectedTools(['cancel_order', 'get_invoice'])).toEqual(['cancel_order', 'get_invoice']);
    expect(expectedTools('clarify')).toEqual([]);
    expect(expectedTools('track_shipment')).toEqual(['track_shipment']);
  });
});
