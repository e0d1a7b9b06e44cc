import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateObject } from '../src/index.ts';
import { ScriptedModel } from '../src/testing/index.ts';

const Ticket = z.object({
  sentiment: z.enum(['positive', 'neutral', 'negative']),
  product: z.string(),
  urgency: z.number().int().min(1).max(5),
});

const prompt = 'My blender arrived broken and I need it for a party tomorrow!';

describe('generateObject', () => {
  it('asks with json_schema strict, and rejects then repairs {"urgency": "high"}', async () => {
    const model = new ScriptedModel({
      turns: [
        { text: '{"sentiment":"negative","product":"blender","urgency":"high"}' },
        { text: '{"sentiment":"negative","product":"blender","urgency":5}' },
      ],
    });
    const result = await generateObject({ model, schema: Ticket, name: 'ticket', prompt });
    expect(result).toMatchObject({ ok: true, attempts: 2, mode: 'json_schema' });
    expect(result.ok && result.object).toEqual({ sentiment: 'negative', product: 'blender', urgency: 5 });
    const format = model.requests[0]?.responseFormat;
    expect(format).toMatchObject({ type: 'json_schema', json_schema: { name: 'ticket', strict: true } });
    expect(format?.type === 'json_schema' && format.json_schema.schema).toMatchObject({
      additionalProperties: false,
      required: ['sentiment', 'product', 'urgency'],
    });
    const repair = model.requests[1]?.messages.at(-1);
    expect(repair?.role).toBe('user');
    expect(repair?.content).toContain('urgency must be of type number (got "high")');
  });

  it('returns a typed error, never unvalidated data, when the repair fails too', async () => {
    const model = new ScriptedModel({
      turns: [
        { text: '{"urgency":"high"}' },
        { text: '{"sentiment":"angry","product":"blender","urgency":9}' },
      ],
    });
    const result = await generateObject({ model, schema: Ticket, prompt });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('STRUCTURED_OUTPUT_INVALID');
    expect(result.error.message).toContain(
      'sentiment must be one of "positive", "neutral", "negative" (got "angry")',
    );
    expect(result.error.message).toContain('urgency must be at most 5 (got 9)');
    expect(result).not.toHaveProperty('object');
  });

  it('reports text that is not JSON and repairs it', async () => {
    const model = new ScriptedModel({
      turns: [
        { text: 'Sure! The ticket is negative.' },
        { text: '{"sentiment":"negative","product":"blender","urgency":4}' },
      ],
    });
    const result = await generateObject({ model, schema: Ticket, prompt });
    expect(result.ok).toBe(true);
    expect(model.requests[1]?.messages.at(-1)?.content).toContain('it is not valid JSON');
  });

  it('falls back to json_object with the schema in the prompt for models without json_schema', async () => {
    const model = new ScriptedModel({
      capabilities: { jsonSchema: false },
      turns: [{ text: '```json\n{"sentiment":"neutral","product":"kettle","urgency":2}\n```' }],
    });
    const result = await generateObject({ model, schema: Ticket, prompt: 'Is the kettle 220V?' });
    expect(result).toMatchObject({
      ok: true,
      mode: 'json_object',
      object: { product: 'kettle', urgency: 2 },
    });
    expect(model.requests[0]?.responseFormat).toEqual({ type: 'json_object' });
    expect(model.requests[0]?.messages[0]?.content).toContain(
      '"urgency":{"type":"integer","minimum":1,"maximum":5}',
    );
  });

  it('does not claim strict mode for a schema with optional fields', async () => {
    const model = new ScriptedModel({ turns: [{ text: '{"product":"kettle"}' }] });
    const schema = z.object({ product: z.string(), note: z.string().optional() });
    const result = await generateObject({ model, schema, prompt: 'kettle' });
    expect(result.ok).toBe(true);
    const format = model.requests[0]?.responseFormat;
    expect(format?.type === 'json_schema' && format.json_schema.strict).toBe(false);
  });
});
