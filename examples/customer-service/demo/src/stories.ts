import { type Conversation, capture } from './conversation.ts';

/** Where the services' spans went, so the last story can draw a trace or say why it cannot. */
export type TraceSource =
  | { kind: 'span-file'; path: string }
  | { kind: 'jaeger'; url: string }
  | { kind: 'elsewhere'; why: string };

/** The requests of the scripted conversation. */
export const REQUESTS = {
  order: 'Where is my order A10086 and when will it arrive?',
  stock: 'Is the blue kettle in stock?',
  refund: 'Please refund order A10086, the kettle arrived broken.',
  badOrderId: 'Where is my order 12345?',
  othersOrder: 'Where is my order A10087?',
} as const;

const ANSWERED = 'the supervisor should answer it';

/**
 * The demo's conversation, six short stories told with the real `switchboard` CLI: an order
 * question that takes two tools, a stock question for another worker, a refund that waits for an
 * operator (approved, and it runs once), another customer's order (refused, then asked as its
 * customer), a malformed order id, and the trace of the first request.
 */
export async function playStories({
  talk,
  trace,
}: {
  talk: Conversation;
  trace: TraceSource;
}): Promise<void> {
  talk.story('1. An order question that takes two tools');
  talk.say('The supervisor hands it to the orders agent, which looks the order up (get_order), then');
  talk.say('estimates its delivery from the carrier and the shipping date (estimate_delivery).');
  talk.say();
  const order = await talk.run({
    args: ['ask', REQUESTS.order],
    code: 0,
    because: ANSWERED,
    shows: [{ pattern: /^Trace: [0-9a-f]{32}$/m, what: 'the trace id' }],
    answers: [
      { pattern: /running get_order/, what: 'the get_order step' },
      { pattern: /running estimate_delivery/, what: 'the estimate_delivery step' },
      { pattern: /estimated delivery: 2026-12-01/, what: 'the estimated delivery date 2026-12-01' },
    ],
  });
  const traceId = capture(order, /^Trace: ([0-9a-f]{32})$/m, 'the trace id ("Trace: <id>")');

  talk.story('2. A stock question, for another worker');
  talk.say('The same supervisor delegates this one to the inventory agent.');
  talk.say();
  await talk.run({
    args: ['ask', REQUESTS.stock],
    code: 0,
    because: ANSWERED,
    answers: [
      { pattern: /inventory agent answered/, what: 'the inventory agent’s answer' },
      { pattern: /Blue Enamel Kettle/, what: 'the Blue Enamel Kettle' },
      { pattern: /units in stock: 14/, what: 'its 14 units in stock' },
    ],
  });

  talk.story('3. A refund waits for a human');
  talk.say('Refunding is dangerous: the orders agent stops and asks an operator first, and ask exits 3.');
  talk.say();
  const refund = await talk.run({
    args: ['ask', REQUESTS.refund],
    code: 3,
    because: 'the refund must wait for an operator’s approval',
    shows: [{ pattern: /approvals approve apr_\w+/, what: 'the approve command with the approval id' }],
    answers: [{ pattern: /Refund order A10086 in full/, what: 'the refund of order A10086 to approve' }],
  });
  const approvalId = capture(refund, /approvals approve (apr_\w+)/, 'the approval id (apr_…)');
  talk.say('An operator sees what waits for a decision:');
  talk.say();
  await talk.run({
    args: ['approvals', 'list'],
    code: 0,
    because: 'an operator should see the pending approvals',
    shows: [{ pattern: new RegExp(`${approvalId}.*pending`), what: `${approvalId} pending` }],
  });
  talk.say('and approves it; the task resumes, the refund runs and the answer comes back:');
  talk.say();
  const reason = 'Photo of the broken kettle checked';
  await talk.run({
    args: ['approvals', 'approve', approvalId, '--reason', reason],
    code: 0,
    because: 'the approved refund should run and the task finish',
    shows: [{ pattern: new RegExp(`Approved ${approvalId}`), what: 'the decision' }],
    answers: [{ pattern: /refunded: yes/, what: '"refunded: yes"' }],
  });
  talk.say('It runs once: approving the same refund again changes nothing (exit 1).');
  talk.say();
  await talk.run({
    args: ['approvals', 'approve', approvalId, '--reason', reason],
    code: 1,
    because: 'a decided approval cannot be decided again',
    shows: [{ pattern: /already approved/, what: '"already approved"' }],
  });

  talk.story('4. Another customer’s order');
  talk.say('You are customer C001. Order A10087 is customer C002’s: the shop answers for it as for an');
  talk.say('order that does not exist, whatever the model is told. The check is in the shop’s code,');
  talk.say('which learns who is asking at every hop, not in a prompt.');
  talk.say();
  await talk.run({
    args: ['ask', REQUESTS.othersOrder],
    code: 0,
    because: ANSWERED,
    answers: [
      {
        pattern: /There is no order A10087 on your account/,
        what: '"There is no order A10087 on your account"',
      },
    ],
  });
  talk.say('--as acts as another caller of this system: its settings hold a token for each customer.');
  talk.say();
  await talk.run({
    args: ['ask', '--as', 'C002', REQUESTS.othersOrder],
    code: 0,
    because: ANSWERED,
    answers: [{ pattern: /status: processing/, what: 'the order’s status, processing' }],
  });

  talk.story('5. A malformed order id');
  talk.say('The orders agent does not guess: it says which format an order id has.');
  talk.say();
  await talk.run({
    args: ['ask', REQUESTS.badOrderId],
    code: 0,
    because: ANSWERED,
    answers: [{ pattern: /the letter A followed by 5 digits/, what: 'the order id format' }],
  });

  talk.story('6. Where to read the trace');
  if (trace.kind === 'elsewhere') {
    talk.say(trace.why);
  } else {
    talk.say(
      'Every hop of request 1 (supervisor, queue, orders agent, each model call and tool) is one trace.',
    );
    talk.say();
    await talk.run({
      args: ['trace', traceId],
      code: 0,
      because: 'the services should have recorded the trace of request 1',
      shows: [
        { pattern: /invoke_agent supervisor/, what: 'the supervisor’s invoke_agent span' },
        { pattern: /invoke_agent orders/, what: 'the orders agent’s invoke_agent span' },
      ],
      // The services write spans in batches; the last ones may land a moment later.
      attempts: 10,
    });
    if (trace.kind === 'span-file') {
      talk.say(`The services wrote their spans to ${trace.path}`);
      talk.say(
        '(switchboard trace reads SWITCHBOARD_SPAN_FILE, default .switchboard/spans.jsonl in the current directory).',
      );
    } else {
      talk.say(`Open it in Jaeger: ${trace.url.replace(/\/+$/, '')}/trace/${traceId}`);
    }
  }
  if (trace.kind !== 'jaeger') {
    talk.say(
      'To see traces in Jaeger, start one (docker run --rm -p 16686:16686 -p 4318:4318 jaegertracing/jaeger)',
    );
    talk.say('and run the demo with the services exporting to it and the CLI reading from it:');
    talk.say(
      '  OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 SWITCHBOARD_JAEGER_URL=http://localhost:16686 pnpm demo',
    );
  }
  talk.say();
}
