import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Role, type Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import {
  AuthenticatedUser,
  a2aHttpInterfaces,
  buildAgentCard,
  createA2aHttpApp,
  createHostedAgent,
  dataPart,
  startA2aHttpServer,
} from '@switchboard/a2a';
import { defineAgent, defineTool, silentLogger } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import express, { type Response } from 'express';
import { z } from 'zod';

export const USER_TOKEN = 'user-token-0123456789';
export const OPERATOR_TOKEN = 'operator-token-0123456789';
export const ADMIN_TOKEN = 'admin-token-0123456789';

/** One request the supervisor received, with its W3C traceparent. */
export interface Received {
  method: string;
  path: string;
  traceparent: string | undefined;
}

/** A supervisor on a loopback port: the real hosted agent over A2A HTTP, plus the admin API contract. */
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

const OrderId = z.string().regex(/^A\d{5}$/);

function shopAgent(refunds: { count: number }, onWaitStarted: () => void) {
  const getOrder = defineTool({
    name: 'get_order',
    summary: 'Look up an order by its id: status and carrier.',
    whenToUse: 'The user asks about an order.',
    input: z.object({ orderId: OrderId }),
    risk: 'read',
    handler: ({ orderId }) => ({ orderId, status: 'shipped', carrier: 'DHL' }),
  });
  const refundOrder = defineTool({
    name: 'refund_order',
    summary: 'Refund an order in full.',
    whenToUse: 'The user asks for their money back.',
    input: z.object({ orderId: OrderId }),
    risk: 'dangerous',
    describeForApproval: ({ orderId }) => ({
      action: `Refund order ${orderId} in full (59.90 EUR)`,
      reversible: false,
    }),
    handler: ({ orderId }) => {
      refunds.count++;
      return { refunded: orderId };
    },
  });
  const waitForWarehouse = defineTool({
    name: 'wait_for_warehouse',
    summary: 'Wait until the warehouse confirms the parcel.',
    whenToUse: 'The user asks to wait for the warehouse.',
    input: z.object({ orderId: OrderId }),
    risk: 'read',
    timeoutMs: 25_000,
    handler: (_input, { signal }) =>
      new Promise((_resolve, reject) => {
        onWaitStarted();
        signal.addEventListener('abort', () => reject(new Error('aborted')));
      }),
  });
  const agent = defineAgent({
    name: 'supervisor',
    instructions: 'Help with orders.',
    tools: [getOrder, refundOrder, waitForWarehouse],
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

type ApprovalEntry = {
  id: string;
  status: 'pending' | 'approved' | 'denied';
  agent: string;
  tool: string;
  action: string;
  text: string;
  reversible: boolean;
  repeatable: boolean;
  requestedAt: string;
  taskId: string;
  contextId: string;
  decidedBy?: string;
  decidedAt?: string;
  reason?: string;
};

const PendingApprovals = z.object({
  pendingApprovals: z.array(
    z.object({
      id: z.string(),
      agent: z.string(),
      tool: z.string(),
      action: z.string(),
      text: z.string(),
      reversible: z.boolean(),
      repeatable: z.boolean(),
      requestedAt: z.string(),
    }),
  ),
});

const fail = (res: Response, status: number, code: string, message: string) =>
  res.status(status).json({ error: { code, message } });

/**
 * Starts the supervisor: the hosted agent (bearer auth; the operator may approve; tasks shared so
 * the operator can answer a user's task) and, under `/admin`, the admin API contract, which finds
 * pending approvals in the input-required tasks and resumes a task by sending the decision as a
 * data part through the hosted agent's request handler, as the operator.
 */
export async function startSupervisor(): Promise<Supervisor> {
  const refunds = { count: 0 };
  let onWaitStarted = () => {};
  const waitStarted = new Promise<void>((resolve) => {
    onWaitStarted = resolve;
  });
  const { agent, model } = shopAgent(refunds, () => onWaitStarted());
  const shell = express();
  const received: Received[] = [];
  shell.use((req, _res, next) => {
    received.push({ method: req.method, path: req.path, traceparent: req.header('traceparent') });
    next();
  });
  const server = await startA2aHttpServer({ app: shell });
  const card = buildAgentCard({
    agent,
    bearerAuth: true,
    interfaces: a2aHttpInterfaces({ baseUrl: server.url }),
  });
  const hosted = createHostedAgent({
    agent,
    model,
    card,
    logger: silentLogger(),
    canApprove: (user) => user?.userName === 'ops',
    ownerResolver: () => 'shop',
  });
  const asOperator = () =>
    new ServerCallContext({ requestedVersion: '1.0', user: new AuthenticatedUser('ops') });
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

  const approvals = new Map<string, ApprovalEntry>();
  const sync = async () => {
    for (const task of await tasks()) {
      if (task.status?.state !== TaskState.TASK_STATE_INPUT_REQUIRED) continue;
      for (const part of task.status.message?.parts ?? []) {
        const parsed =
          part.content?.$case === 'data' ? PendingApprovals.safeParse(part.content.value) : undefined;
        for (const request of parsed?.success ? parsed.data.pendingApprovals : []) {
          if (!approvals.has(request.id)) {
            approvals.set(request.id, {
              ...request,
              status: 'pending',
              taskId: task.id,
              contextId: task.contextId,
            });
          }
        }
      }
    }
  };
  const admin = express.Router();
  admin.use((req, res, next) => {
    if (req.header('authorization') !== `Bearer ${ADMIN_TOKEN}`) {
      fail(
        res,
        401,
        'UNAUTHORIZED',
        'The admin API needs an operator token: send "Authorization: Bearer <token>".',
      );
      return;
    }
    next();
  });
  admin.use(express.json());
  admin.get('/approvals', async (req, res) => {
    const status = z.enum(['pending', 'decided', 'all']).safeParse(req.query.status ?? 'pending');
    if (!status.success) {
      fail(res, 400, 'INVALID_REQUEST', 'status must be pending, decided or all.');
      return;
    }
    await sync();
    const wanted = (entry: ApprovalEntry) =>
      status.data === 'all' || (status.data === 'pending') === (entry.status === 'pending');
    res.json({ approvals: [...approvals.values()].filter(wanted) });
  });
  for (const [verb, decision] of [
    ['approve', 'approved'],
    ['deny', 'denied'],
  ] as const) {
    admin.post(`/approvals/:id/${verb}`, async (req, res) => {
      const reason: unknown = req.body?.reason;
      if (reason !== undefined && typeof reason !== 'string') {
        fail(res, 400, 'INVALID_REQUEST', 'reason must be a string.');
        return;
      }
      await sync();
      const entry = approvals.get(req.params.id);
      if (!entry) {
        fail(res, 404, 'APPROVAL_NOT_FOUND', `There is no approval ${req.params.id}.`);
        return;
      }
      if (entry.status !== 'pending') {
        fail(
          res,
          409,
          'APPROVAL_ALREADY_DECIDED',
          `Approval ${entry.id} is already ${entry.status} by ${entry.decidedBy} at ${entry.decidedAt}.`,
        );
        return;
      }
      Object.assign(entry, {
        status: decision,
        decidedBy: 'ops',
        decidedAt: new Date().toISOString(),
        ...(reason ? { reason } : {}),
      });
      await hosted.requestHandler.sendMessage(
        {
          tenant: '',
          message: {
            messageId: randomUUID(),
            role: Role.ROLE_USER,
            taskId: entry.taskId,
            contextId: entry.contextId,
            parts: [
              dataPart({
                approvalDecision: { approvalId: entry.id, decision, ...(reason ? { reason } : {}) },
              }),
            ],
            metadata: {},
            extensions: [],
            referenceTaskIds: [],
          },
          configuration: {
            acceptedOutputModes: [],
            taskPushNotificationConfig: undefined,
            returnImmediately: true,
          },
          metadata: {},
        },
        asOperator(),
      );
      res.status(202).json({ approval: entry, taskId: entry.taskId });
    });
  }
  shell.use('/admin', admin);
  shell.use(
    createA2aHttpApp({
      requestHandler: hosted.requestHandler,
      card,
      logger: silentLogger(),
      auth: { bearerTokens: { [USER_TOKEN]: 'alice', [OPERATOR_TOKEN]: 'ops' } },
    }),
  );
  const cwd = await mkdtemp(join(tmpdir(), 'switchboard-cli-'));
  return {
    url: server.url,
    received,
    refunds,
    waitStarted,
    tasks,
    env: {
      SWITCHBOARD_URL: server.url,
      SWITCHBOARD_TOKEN: USER_TOKEN,
      SWITCHBOARD_ADMIN_TOKEN: ADMIN_TOKEN,
      SWITCHBOARD_JAEGER_URL: '',
    },
    cwd,
    close: () => server.close(),
  };
}
