import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { defineAgent, silentLogger } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { hostAgent } from '@switchboard/host';
import { MemoryApprovalBoard } from '@switchboard/host/approvals';
import { PrincipalUser } from '@switchboard/identity';
import { standInTools } from './stand-in-tools.ts';

export const USER_TOKEN = 'user-token-0123456789';
export const OPERATOR_TOKEN = 'operator-token-0123456789';
export const ADMIN_TOKEN = 'admin-token-0123456789';
/** A second customer's token (customer `bob`), for `--as`. */
export const BOB_TOKEN = 'bob-token-0123456789ab';

/** One request the supervisor received, with its W3C traceparent. */
export interface Received {
  method: string;
  path: string;
  traceparent: string | undefined;
  /** The bearer token it carried, if any. */
  token: string | undefined;
}

/** A supervisor on a loopback port: the real hosted agent over A2A HTTP, plus the admin API. */
export interface Supervisor {
  url: string;
  received: Received[];
  /** How often the refund really ran. */
  refunds: { count: number };
  /** Resolves once the warehouse tool is waiting (for cancel tests). */
  waitStarted: Promise<void>;
  /** Every task, as the operator sees them. */
  tasks(): Promise<Task[]>;
  /** The environment that points the CLI at this supervisor, in a directory without a dev file. */
  env: Record<string, string>;
  /** A fresh empty directory, to run the CLI in (no `.switchboard/dev.json`). */
  cwd: string;
  close(): Promise<void>;
}

/**
 * The body of the email the supervisor sends when asked to email a customer: 30 lines, the last
 * one what an approver must see before it goes out.
 */
export const EMAIL_BODY = [
  'Dear Ada,',
  ...Array.from({ length: 28 }, (_, line) => `Line ${line + 2} of our letter about order A10086.`),
  'Re-enter your card at http://evil.example/pay',
].join('\n');

function shopAgent(refunds: { count: number }, onWaitStarted: () => void) {
  const agent = defineAgent({
    name: 'supervisor',
    instructions: 'Help with orders.',
    tools: standInTools({ onRefund: () => refunds.count++, onWaitStarted }),
  });
  // A model that reads the conversation: a refund asks for approval, then answers honestly.
  const model = new ScriptedModel({
    turns: [],
    whenExhausted: (request) => {
      const user = [...request.messages].reverse().find((message) => message.role === 'user');
      const orderId = /A\d{5}/.exec(user?.content ?? '')?.[0] ?? 'A10086';
      const last = request.messages.at(-1);
      if (last?.role === 'user') {
        const text = last.content ?? '';
        if (/refund/i.test(text)) return { toolCalls: [{ name: 'refund_order', arguments: { orderId } }] };
        if (/email/i.test(text)) {
          // "…, subject: <text>" puts the user's own words in the subject, as a model may.
          const subject = /subject: (.*)$/s.exec(text)?.[1] ?? `About order ${orderId}`;
          const email = {
            to: 'ada.lovelace@example.com',
            subject,
            body: EMAIL_BODY,
          };
          return { toolCalls: [{ name: 'send_email', arguments: email }] };
        }
        if (/wait/i.test(text))
          return { toolCalls: [{ name: 'wait_for_warehouse', arguments: { orderId } }] };
        return { toolCalls: [{ name: 'get_order', arguments: { orderId } }] };
      }
      const result = last?.role === 'tool' ? last.content : '';
      if (result.includes('APPROVAL_DENIED')) {
        return { text: `I did not refund order ${orderId}: an operator declined the refund.` };
      }
      if (result.includes('refunded')) return { text: `Order ${orderId} was refunded.` };
      return { text: `Order ${orderId} has shipped with DHL.` };
    },
  });
  return { agent, model };
}

/**
 * Starts the supervisor: the hosted agent (bearer auth; the operator may approve; tasks shared so
 * the operator can answer a user's task) with its approval board, and under `/admin` the real admin
 * API over that board.
 */
export async function startSupervisor(): Promise<Supervisor> {
  const refunds = { count: 0 };
  let onWaitStarted = () => {};
  const waitStarted = new Promise<void>((resolve) => {
    onWaitStarted = resolve;
  });
  const { agent, model } = shopAgent(refunds, () => onWaitStarted());
  const host = await hostAgent({
    agent,
    model,
    http: {},
    auth: {
      tokens: {
        customers: { [USER_TOKEN]: 'alice', [BOB_TOKEN]: 'bob' },
        operators: { [OPERATOR_TOKEN]: 'ops', [ADMIN_TOKEN]: 'ops' },
      },
    },
    approvals: new MemoryApprovalBoard(),
    logger: silentLogger(),
    ownerResolver: () => 'shop',
  });
  const { hosted } = host;
  const received: Received[] = [];
  host.app.use((req, _res, next) => {
    received.push({
      method: req.method,
      path: req.path,
      traceparent: req.header('traceparent'),
      token: /^Bearer (\S+)$/.exec(req.header('authorization') ?? '')?.[1],
    });
    next();
  });
  await host.start();
  const asOperator = () =>
    new ServerCallContext({
      requestedVersion: '1.0',
      user: new PrincipalUser({ id: 'ops', kind: 'operator', roles: [], via: [] }),
    });
  const tasks = async () =>
    (
      await hosted.requestHandler.listTasks(
        {
          tenant: '',
          contextId: '',
          status: TaskState.TASK_STATE_UNSPECIFIED,
          pageToken: '',
          statusTimestampAfter: undefined,
        },
        asOperator(),
      )
    ).tasks;

  const cwd = await mkdtemp(join(tmpdir(), 'switchboard-cli-'));
  return {
    url: host.url,
    received,
    refunds,
    waitStarted,
    tasks,
    env: {
      SWITCHBOARD_URL: host.url,
      SWITCHBOARD_TOKEN: USER_TOKEN,
      SWITCHBOARD_ADMIN_TOKEN: ADMIN_TOKEN,
      SWITCHBOARD_JAEGER_URL: '',
    },
    cwd,
    close: () => host.close(),
  };
}
