import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentError, defineTool, Toolset } from '../src/index.ts';
import { getOrder } from './support/shop-tools.ts';

const base = {
  name: 'check_stock',
  summary: 'How many units of a product are in stock.',
  whenToUse: 'The user asks whether a product is available.',
  input: z.object({ sku: z.string() }),
  risk: 'read' as const,
  handler: () => ({ units: 3 }),
};

describe('defineTool', () => {
  it('refuses a definition with every problem named and how to fix it', () => {
    const attempt = () =>
      defineTool({ ...base, name: 'check stock!', summary: ' ', risk: 'write', retries: 2 });
    expect(attempt).toThrow(AgentError);
    expect(attempt).toThrow(/name "check stock!" must start with a letter/);
    expect(attempt).toThrow(/summary is empty/);
    expect(attempt).toThrow(/retries > 0 on a non-idempotent tool/);
  });

  it('refuses a dangerous tool without an approval text', () => {
    expect(() => defineTool({ ...base, risk: 'dangerous' })).toThrow(/needs describeForApproval/);
  });

  it('defaults: read tools are idempotent, write tools are not; a call leads to its own risk', () => {
    expect(defineTool(base).idempotent).toBe(true);
    expect(defineTool({ ...base, risk: 'write' }).idempotent).toBe(false);
    expect(defineTool({ ...base, risk: 'write' }).leadsTo).toBe('write');
  });

  it('takes what a call leads to beyond the tool, never lower than its own risk', () => {
    expect(defineTool({ ...base, risk: 'write', leadsTo: 'dangerous' }).leadsTo).toBe('dangerous');
    expect(() => defineTool({ ...base, risk: 'write', leadsTo: 'read' })).toThrow(
      /leadsTo "read" is lower than risk "write"/,
    );
  });

  it('declares its effects beside the function the model sees', () => {
    const [declaration] = new Toolset([defineTool({ ...base, risk: 'write' })]).declarations();
    expect(declaration?.effects).toEqual({ risk: 'write', idempotent: false });
    expect(Object.keys(declaration?.function ?? {})).toEqual(['name', 'description', 'parameters']);
  });
});

describe('Toolset', () => {
  it('refuses two tools with the same name', () => {
    const tools = new Toolset([getOrder]);
    expect(() => tools.add(getOrder)).toThrow(/Tool "get_order" is registered twice/);
    expect(tools.names).toEqual(['get_order']);
  });

  it('makes each declaration once, shared by every model call and safe from a caller that edits it', () => {
    const tools = new Toolset([defineTool(base), getOrder]);
    const [first] = tools.declarations(['check_stock']);
    const [again] = tools.declarations();
    if (!first) throw new Error('check_stock is not declared');
    expect(again).toBe(first);
    expect(() => {
      (first.function.parameters as { properties: Record<string, unknown> }).properties.sku = {};
    }).toThrow(TypeError);
    expect(tools.declarations(['check_stock'])[0]?.function.parameters).toMatchObject({
      properties: { sku: { type: 'string' } },
    });
  });

  it('declares each tool with its when / when-not text and a JSON schema from zod', () => {
    const [declaration] = new Toolset([getOrder, defineTool(base)]).declarations(['get_order']);
    expect(declaration?.function.name).toBe('get_order');
    expect(declaration?.function.description).toContain(
      'Use when: The user asks about an order they placed.',
    );
    expect(declaration?.function.description).toContain(
      'Do not use when: The user asks about stock; use check_stock.',
    );
    expect(declaration?.function.parameters).toMatchObject({
      type: 'object',
      properties: { orderId: { type: 'string', pattern: '^A\\d{5}$' } },
      required: ['orderId'],
    });
    expect(declaration?.function.parameters).not.toHaveProperty('$schema');
  });
});
