import {
  type ChatModel,
  type ChatRequest,
  defineAgent,
  defineTool,
  runAgent,
  ToolRouter,
  Toolset,
} from '@switchboard/agent';
import { MemoryLogger, RecordingTracer } from '@switchboard/agent/testing';
import { SWITCHBOARD } from '@switchboard/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OfflineModel } from '../src/index.ts';
import { shopTools } from './support/routing-tools.ts';

const instructions = 'You help the shop’s customers. Use the tools; never guess.';
const shopAgent = () => defineAgent({ name: 'shop', instructions, tools: shopTools() });
const calledTools = (result: Awaited<ReturnType<typeof runAgent>>) =>
  result.toolCalls.map((call) => call.tool);

/** The offline planner, keeping every request it is sent: what the model was offered. */
function recordingPlanner(): { model: ChatModel; requests: ChatRequest[] } {
  const planner = new OfflineModel();
  const requests: ChatRequest[] = [];
  const model: ChatModel = {
    modelId: planner.modelId,
    provider: planner.provider,
    capabilities: planner.capabilities,
    generate: (request) => {
      requests.push(request);
      return planner.generate(request);
    },
    stream: (request) => {
      requests.push(request);
      return planner.stream(request);
    },
  };
  return { model, requests };
}

describe('ToolRouter in the agent loop', () => {
  it('offers the model only the few tools the request needs, and the right one runs', async () => {
    const { model, requests } = recordingPlanner();
    const result = await runAgent({
      agent: shopAgent(),
      model,
      input: 'Where is my parcel for A10086? It has not arrived.',
      router: new ToolRouter({ topK: 3 }),
      logger: new MemoryLogger(),
    });
    const offered = requests[0]?.tools?.map((tool) => tool.function.name) ?? [];
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.length).toBeLessThanOrEqual(3);
    expect(offered).toContain('track_shipment');
    expect(calledTools(result)).toEqual(['track_shipment']);
    expect(result.routing?.outcome).toBe('routed');
  });

  it('without a router the model is offered every tool', async () => {
    const { model, requests } = recordingPlanner();
    await runAgent({
      agent: shopAgent(),
      model,
      input: 'Where is my parcel for A10086?',
      logger: new MemoryLogger(),
    });
    expect(requests[0]?.tools).toHaveLength(shopTools().length);
  });

  it('records the decision on the agent span and in the log: candidates, scores, thresholds, outcome', async () => {
    const tracer = new RecordingTracer();
    const logger = new MemoryLogger();
    await runAgent({
      agent: shopAgent(),
      model: new OfflineModel(),
      input: 'I would like a refund for order A10086',
      router: new ToolRouter({ recallThreshold: 0.2, acceptThreshold: 0.5, topK: 4 }),
      tracer,
      logger,
    });
    const span = tracer.spans.find((recorded) => recorded.name === 'invoke_agent shop');
    expect(span?.attributes).toMatchObject({
      [SWITCHBOARD.routingOutcome]: 'routed',
      [SWITCHBOARD.routingRecallThreshold]: 0.2,
      [SWITCHBOARD.routingAcceptThreshold]: 0.5,
      [SWITCHBOARD.routingTopK]: 4,
      [SWITCHBOARD.routingRecall]: 'lexical',
    });
    expect(span?.attributes[SWITCHBOARD.routingCandidates]).toContain('refund_order');
    expect(String(span?.attributes[SWITCHBOARD.routingRanked])).toMatch(/refund_order=\d/);
    const entry = logger.entries.find((logged) => logged.message === 'tool routing decision');
    expect(entry?.fields).toMatchObject({
      agent: 'shop',
      outcome: 'routed',
      thresholds: { recall: 0.2, accept: 0.5, topK: 4 },
    });
  });

  it('finds a tool added at runtime on the very next request', async () => {
    const router = new ToolRouter();
    const agent = shopAgent();
    const request = 'Please gift wrap order A10086 for a birthday';
    const before = await runAgent({
      agent,
      model: new OfflineModel(),
      input: request,
      router,
      logger: new MemoryLogger(),
    });
    expect(before.stopReason).toBe('unsupported');
    expect(calledTools(before)).toEqual([]);
    agent.toolset.add(
      defineTool({
        name: 'add_gift_wrap',
        summary: 'Gift wrap an order and add a card with a message.',
        whenToUse: 'The customer wants an order wrapped as a present or gift.',
        input: z.object({ orderId: z.string().optional() }),
        risk: 'write',
        handler: () => ({ wrapped: true }),
      }),
    );
    const permitted = defineAgent({ name: 'shop', instructions, tools: agent.toolset.list() });
    const after = await runAgent({
      agent: permitted,
      model: new OfflineModel(),
      input: request,
      router,
      logger: new MemoryLogger(),
    });
    expect(after.routing?.candidates[0]?.tool).toBe('add_gift_wrap');
    expect(calledTools(after)).toEqual(['add_gift_wrap']);
  });
});

describe('below the thresholds the agent does not guess', () => {
  it('splits a request no single tool explains into parts, routes each, and runs both', async () => {
    const router = new ToolRouter({ acceptThreshold: 0.8 });
    const request = 'Cancel order A10086 and send me the invoice for A20001';
    const decision = await router.route({ request, toolset: new Toolset(shopTools()) });
    expect(decision.outcome).toBe('split');
    expect(decision.parts?.map((part) => part.best?.tool)).toEqual(['cancel_order', 'get_invoice']);
    const result = await runAgent({
      agent: shopAgent(),
      model: new OfflineModel(),
      input: request,
      router,
      logger: new MemoryLogger(),
    });
    expect(calledTools(result).sort()).toEqual(['cancel_order', 'get_invoice']);
  });

  it('asks which tool is meant when some came close but none is trusted, and acts on the answer', async () => {
    // Candidates kept generously: a vague request about an order still has tools to ask between.
    const router = new ToolRouter({ recallThreshold: 0.15, acceptThreshold: 0.45 });
    const agent = shopAgent();
    const asked = await runAgent({
      agent,
      model: new OfflineModel(),
      input: 'I have a question about my order',
      router,
      logger: new MemoryLogger(),
    });
    expect(asked.stopReason).toBe('clarify');
    expect(asked.state.status).toBe('input_required');
    expect(calledTools(asked)).toEqual([]);
    expect(asked.output).toMatch(/not sure which/);
    expect(asked.output).toContain('Look up an order');
    const answered = await runAgent({
      agent,
      model: new OfflineModel(),
      input: 'the status of it please, A10086',
      history: asked.messages,
      router,
      logger: new MemoryLogger(),
    });
    expect(answered.routing?.outcome).toBe('routed');
    expect(calledTools(answered)).toEqual(['get_order']);
  });

  it('asks what is needed when the request names nothing to go on', async () => {
    const result = await runAgent({
      agent: shopAgent(),
      model: new OfflineModel(),
      input: 'Hi, I need help with something',
      router: new ToolRouter(),
      logger: new MemoryLogger(),
    });
    expect(result.stopReason).toBe('clarify');
    expect(result.output).toMatch(/what you would like me to do/);
  });

  it('says plainly what it cannot do when no tool comes close, without calling one', async () => {
    const withoutRouter = await runAgent({
      agent: shopAgent(),
      model: new OfflineModel({ minScore: 0 }),
      input: 'Book me a flight to Lisbon for my order trip',
      logger: new MemoryLogger(),
    });
    const result = await runAgent({
      agent: shopAgent(),
      model: new OfflineModel({ minScore: 0 }),
      input: 'Book me a flight to Lisbon for my order trip',
      router: new ToolRouter(),
      logger: new MemoryLogger(),
    });
    expect(calledTools(withoutRouter).length).toBeGreaterThan(0);
    expect(result.stopReason).toBe('unsupported');
    expect(result.state.status).toBe('completed');
    expect(calledTools(result)).toEqual([]);
    expect(result.output).toMatch(/^I cannot help with that/);
  });
});
