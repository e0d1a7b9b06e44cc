import { Role } from '@a2a-js/sdk';
import { costOf, defineAgent, defineTool } from '@switchboard/agent';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  BoardApproval,
  COST_KEY,
  highestRisk,
  PERMISSIONS_EXTENSION_URI,
  PermissionManifest,
  permissionsExtension,
  readMessage,
  readTaskCost,
  sendMessageRequest,
  userMessage,
} from '../src/index.ts';

describe('message builders', () => {
  it('build a user message that reads back as its text and data', () => {
    const message = userMessage({
      text: 'Where is A10086?',
      data: { orderId: 'A10086' },
      contextId: 'ctx-1',
    });
    expect(message.role).toBe(Role.ROLE_USER);
    expect(message.contextId).toBe('ctx-1');
    expect(message.messageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(readMessage(message)).toEqual({ text: 'Where is A10086?', data: [{ orderId: 'A10086' }] });
  });

  it('send blocking by default, returning at once only when asked', () => {
    const message = userMessage({ text: 'hi' });
    expect(sendMessageRequest({ message }).configuration).toBeUndefined();
    expect(sendMessageRequest({ message, returnImmediately: true }).configuration?.returnImmediately).toBe(
      true,
    );
  });
});

describe('the permissions extension', () => {
  const read = defineTool({
    name: 'get_thing',
    summary: 'Read a thing.',
    whenToUse: 'The user asks about a thing.',
    input: z.object({ id: z.string() }),
    risk: 'read',
    handler: ({ id }) => ({ id }),
  });
  const remove = defineTool({
    name: 'delete_thing',
    summary: 'Delete a thing.',
    whenToUse: 'The user asks to delete a thing.',
    input: z.object({ id: z.string() }),
    risk: 'dangerous',
    describeForApproval: ({ id }) => ({ action: `Delete ${id}`, reversible: false }),
    handler: ({ id }) => ({ deleted: id }),
  });

  it("names each permitted tool with its risk, as a peer's card declares it", () => {
    const agent = defineAgent({
      name: 'things',
      description: 'Keeps things.',
      instructions: 'Keep things.',
      tools: [read, remove],
      permissions: { tools: ['get_thing'] },
    });
    const extension = permissionsExtension({ agent });
    expect(extension.uri).toBe(PERMISSIONS_EXTENSION_URI);
    const manifest = PermissionManifest.parse(extension.params);
    expect(manifest.tools.map((tool) => [tool.name, tool.risk])).toEqual([['get_thing', 'read']]);
  });

  it('takes the highest risk of a set of tools', () => {
    expect(highestRisk([read, remove])).toBe('dangerous');
    expect(highestRisk([read])).toBe('read');
  });
});

describe("the admin API's approval shape", () => {
  it('refuses an approval without its status, naming the field', () => {
    const result = BoardApproval.safeParse({ id: 'a1', agent: 'things', tool: 'delete_thing' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path[0])).toContain('status');
  });
});

describe('the cost a task carries', () => {
  const cost = costOf([
    { agent: 'orders', tokensIn: 9, tokensOut: 2, modelMs: 3, toolMs: 1, queueWaitMs: 4, hops: 1 },
  ]);

  it('reads a cost that checks out, and says when there is none', () => {
    expect(readTaskCost({ [COST_KEY]: cost })).toEqual({ kind: 'cost', cost });
    expect(readTaskCost({})).toEqual({ kind: 'none' });
    expect(readTaskCost(undefined)).toEqual({ kind: 'none' });
  });

  it('refuses a malformed or absurd cost, saying what is wrong, without throwing', () => {
    for (const bad of [
      'lots',
      { agents: 'all', total: {} },
      { ...cost, total: { ...cost.total, tokensIn: 10 ** 15 } },
      { agents: [{ ...cost.agents[0], tokensIn: -5 }], total: { ...cost.total, tokensIn: -5 } },
    ]) {
      const reading = readTaskCost({ [COST_KEY]: bad });
      expect(reading.kind, JSON.stringify(bad)).toBe('invalid');
      if (reading.kind === 'invalid') expect(reading.problem).not.toBe('');
    }
  });
});
