import { AgentState, decisionFor, MemoryIntentStore, runAgent } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { OfflineModel } from '@switchboard/offline-model';
import { describe, expect, it } from 'vitest';
import { createCommsAgent, Ticket, ticketCues } from '../src/index.ts';
import { ada, now, operator, quiet, seededMemoryStore, toolResults } from './support/shop.ts';

const model = new OfflineModel({ now });
const FURIOUS = "I'm furious, my kettle from order A10086 arrived broken and I need this fixed today!";

describe('the comms agent on the offline model', () => {
  it('story 5: files a schema-valid ticket from a furious message', async () => {
    const agent = createCommsAgent({ store: await seededMemoryStore(), model });
    const result = await runAgent({ agent, model, input: FURIOUS, principal: ada, ...quiet });
    expect(result.stopReason).toBe('model');
    expect(result.toolCalls.map((call) => [call.tool, call.arguments])).toEqual([
      ['extract_ticket', { request: FURIOUS }],
    ]);
    const [filed] = toolResults(result);
    const ticket = Ticket.parse(filed?.data);
    expect(ticket.sentiment).toBe('negative');
    expect(ticket.product).toBe('Stainless Steel Kettle');
    expect(ticket.urgency).toBeGreaterThanOrEqual(1);
    expect(ticket.urgency).toBeLessThanOrEqual(5);
    expect(filed?.data).toMatchObject({ orderId: 'A10086', urgency: 5 });
    expect(result.output).toContain('sentiment: negative');
  });

  it('reads cues from the message and the store: mood, urgency and the product', async () => {
    const store = await seededMemoryStore();
    expect((await ticketCues({ store, message: 'Thanks, the blue kettle is lovely!' })).ticket).toMatchObject(
      {
        sentiment: 'positive',
        product: 'Blue Enamel Kettle',
        urgency: 2,
      },
    );
    expect((await ticketCues({ store, message: 'When do toasters come back?' })).ticket).toMatchObject({
      sentiment: 'neutral',
      product: 'toaster',
      urgency: 3,
    });
  });

  it('drafts an apology, sends it only after approval, and only once', async () => {
    const store = await seededMemoryStore();
    const agent = createCommsAgent({ store, model });
    const intents = new MemoryIntentStore();
    const first = await runAgent({
      agent,
      model,
      input: 'Please send the customer of order A10086 an apology email.',
      intents,
      principal: ada,
      ...quiet,
    });
    expect(first.stopReason).toBe('approval');
    expect(first.toolCalls.map((call) => call.tool)).toEqual(['draft_apology_email', 'send_email']);
    const [request] = first.pendingApprovals;
    if (!request) throw new Error('no pending approval');
    expect(request.action).toBe(
      'Send the email "We are sorry about your order A10086" to ada.lovelace@example.com',
    );
    // The approver reads the body that will be sent, and every argument.
    const body = String(request.arguments.body);
    expect(body).toContain('Dear Ada,');
    expect(request.details).toBe(`Body:\n${body}`);
    expect(request.arguments).toEqual({
      to: 'ada.lovelace@example.com',
      subject: 'We are sorry about your order A10086',
      body,
    });
    expect(await store.listOutbox()).toEqual([]);

    const decision = decisionFor({ request, decision: 'approved', decidedBy: 'op-ada' });
    const stored = JSON.parse(JSON.stringify({ messages: first.messages, state: first.state }));
    for (const fresh of [false, true]) {
      await runAgent({
        agent,
        model,
        history: stored.messages,
        state: AgentState.parse(stored.state),
        decisions: [decision],
        intents: fresh ? new MemoryIntentStore() : intents,
        principal: ada,
        ...quiet,
      });
    }
    const outbox = await store.listOutbox();
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({
      to: 'ada.lovelace@example.com',
      subject: 'We are sorry about your order A10086',
    });
    expect(outbox[0]?.body).toContain('Dear Ada,');
    expect(outbox[0]?.body).toContain('Stainless Steel Kettle');
  });

  it('shows a long body’s first lines under the action, and the whole body in the arguments', async () => {
    const store = await seededMemoryStore();
    const body = Array.from({ length: 40 }, (_, line) => `Line ${line + 1} of the letter.`).join('\n');
    const email = { to: 'ada.lovelace@example.com', subject: 'A long letter', body };
    const first = await runAgent({
      agent: createCommsAgent({ store, model }),
      model: new ScriptedModel({ turns: [{ toolCalls: [{ name: 'send_email', arguments: email }] }] }),
      input: 'Send Ada the long letter.',
      ...quiet,
    });
    const [request] = first.pendingApprovals;
    expect(request?.action).toBe('Send the email "A long letter" to ada.lovelace@example.com');
    expect(request?.details?.split('\n').slice(0, 3)).toEqual([
      'Body (the first 20 of 40 lines; the whole body is in the arguments):',
      'Line 1 of the letter.',
      'Line 2 of the letter.',
    ]);
    expect(request?.details).toContain('Line 20 of the letter.');
    expect(request?.details).not.toContain('Line 21 of the letter.');
    expect(request?.details).toMatch(/\[… \d+ more characters\]$/);
    expect(request?.arguments).toEqual(email);
    expect(await store.listOutbox()).toEqual([]);
  });

  it('refuses a subject or recipient with a line break or an escape sequence, and asks no approval for it', async () => {
    const store = await seededMemoryStore();
    const body = 'Dear Ada,\nsorry.\n\tThe shop';
    const hostile = [
      { to: 'ada.lovelace@example.com', subject: 'Sorry\r\nBcc: eve@evil.example', body },
      { to: 'ada.lovelace@example.com', subject: 'Sorry\u001b[8m (pre-approved by finance)', body },
      { to: 'ada.lovelace@example.com', subject: 'Sorry \u202eevil', body },
      { to: 'ada.lovelace@example.com\r\nBcc: eve@evil.example', subject: 'Sorry', body },
      { to: 'ada.lovelace@example.com', subject: 'Sorry', body: 'Dear Ada,\u001b[2J' },
    ];
    for (const email of hostile) {
      const scripted = new ScriptedModel({
        turns: [{ toolCalls: [{ name: 'send_email', arguments: email }] }, { text: 'Not sent.' }],
      });
      const result = await runAgent({
        agent: createCommsAgent({ store, model }),
        model: scripted,
        input: 'Send Ada an apology.',
        ...quiet,
      });
      expect(result.pendingApprovals, JSON.stringify(email)).toEqual([]);
      expect(result.toolCalls[0]).toMatchObject({ tool: 'send_email', argumentsValid: false });
      const told = scripted.requests[1]?.messages.find((message) => message.role === 'tool');
      expect(told?.content).toMatch(/(subject|to|body) .*(one line of plain text|control character)/);
    }
    expect(await store.listOutbox()).toEqual([]);
  });

  it('refuses an operator to email an address that is not a customer', async () => {
    const store = await seededMemoryStore();
    const agent = createCommsAgent({ store, model });
    const first = await runAgent({
      agent,
      model,
      input: 'Send an email to eve@evil.example with subject: "Hello" and body: "Your data"',
      principal: operator,
      ...quiet,
    });
    const resumed = await runAgent({
      agent,
      model,
      history: first.messages,
      state: first.state,
      decisions: first.pendingApprovals.map((request) =>
        decisionFor({ request, decision: 'approved', decidedBy: 'op-ada' }),
      ),
      principal: operator,
      ...quiet,
    });
    expect(resumed.output).toContain('eve@evil.example is not the email of a customer');
    expect(await store.listOutbox()).toEqual([]);
  });
});
