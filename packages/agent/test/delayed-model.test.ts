import { describe, expect, it } from 'vitest';
import { DelayedModel, ScriptedModel } from '../src/testing/index.ts';

const request = (signal?: AbortSignal) => ({
  messages: [{ role: 'user' as const, content: 'Hello' }],
  ...(signal ? { signal } : {}),
});

describe('DelayedModel', () => {
  it('answers as the model it wraps, after the wait chosen for the request', async () => {
    const scripted = new ScriptedModel({ turns: [{ text: 'Hi there.' }] });
    const delayed = new DelayedModel({ model: scripted, delayMs: () => 150 });
    const started = performance.now();
    const response = await delayed.generate(request());
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(response.message.content).toBe('Hi there.');
    expect(delayed.calls).toBe(1);
    expect(delayed.modelId).toBe(scripted.modelId);
  });

  it('a caller that gives up cuts the wait short', async () => {
    const delayed = new DelayedModel({
      model: new ScriptedModel({ turns: [{ text: 'late' }] }),
      delayMs: 60_000,
      modelId: 'slow',
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    await delayed.generate(request(controller.signal)).catch(() => undefined);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(delayed.modelId).toBe('slow');
  });
});
