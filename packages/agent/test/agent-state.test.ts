import { describe, expect, it } from 'vitest';
import { AgentState, createAgentState } from '../src/index.ts';

describe('the agent state', () => {
  it('reads state stored before the one spelling of canceled', () => {
    const stored = { ...createAgentState({ agent: 'orders', conversationId: 'c1' }), status: 'cancelled' };
    expect(AgentState.parse(JSON.parse(JSON.stringify(stored))).status).toBe('canceled');
  });

  it('refuses a status it does not know, naming the field', () => {
    const stored = { ...createAgentState({ agent: 'orders', conversationId: 'c1' }), status: 'paused' };
    const result = AgentState.safeParse(stored);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['status']);
  });
});
