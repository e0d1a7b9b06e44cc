import { join } from 'node:path';
import { type Task, TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { REPO_ROOT } from '@switchboard/cli';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from '@switchboard/openai/testing';
import { spawnGroup } from '@switchboard/test-processes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentOf, delayedOffline, userText } from './support/delayed-offline-model.ts';
import { answerOf, sdkClient, textMessage, untilState } from './support/sdk-client.ts';
import { NO_CUSTOMER_LIMITS, startTestSystem, type TestSystem } from './support/system.ts';

let server: OpenAICompatibleServer;
let system: TestSystem;

beforeAll(async () => {
  server = await startOpenAICompatibleServer({
    model: // The orders agent's model calls take 30 s when the request says "slowly": a delegation stays in flight.
      delayedOffline((request) =>
        agentOf(request) === 'orders' && /slowly/i.test(userText(request)) ? 30_000 : 0,
      ),
    apiKey: 'sk-e2e-scripted',
  });
  system = await startTestSystem({
    env: {
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'sk-e2e-scripted',
      SWITCHBOARD_MODEL: 'scripted-offline',
      ...NO_CUSTOMER_LIMITS,
    },
    // Long enough for a CLI to start and cancel a slow task under load, short enough for the crash drill.
    serviceEnv: { supervisor: { SWITCHBOARD_HOP_TIMEOUT_MS: '10000' } },
  });
});
afterAll(async () => {
  await system?.stop();
  await server?.close();
});

const customer = () => sdkClient(system.launched.access.supervisorUrl, system.launched.access.token);
const message = (text: string) => textMessage(text);

/** Starts a request whose orders delegation hangs on the slow model; resolves with the supervisor's task id. */
async function startSlowRequest(client: Client): Promise<string> {
  const stream = client.sendMessageStream(message('Where is my order A10086? Check slowly please.'));
  for await (const event of stream) {
    const payload = event.payload;
    if (payload?.$case === 'statusUpdate') {
      const text = payload.value.status?.message?.parts
        .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
        .join('');
      if (text?.includes('orders: Working on it')) return payload.value.taskId;
    }
  }
  throw new Error('the stream ended before the orders agent started');
}

async function workerTasks(agent: string): Promise<{ id: string; status: { state: string } }[]> {
  const keys = (await system.redis.keys(`{${system.namespace}:${agent}}:task:*`)).filter(
    (key) => !key.includes(':index'),
  );
  const raws = keys.length > 0 ? await system.redis.mget(keys) : [];
  return raws.flatMap((raw) => {
    try {
      return raw ? [JSON.parse(raw)] : [];
    } catch {
      return [];
    }
  });
}

describe('the system on a scripted OpenAI-compatible server (the real openai client in every service)', () => {
  it('completes the two-step order question for an SDK client, every agent calling the model over HTTP', async () => {
    const client = await customer();
    const task = (await client.sendMessage(
      message('Where is my order A10086 and when will it arrive?'),
    )) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerOf(task)).toContain('estimated delivery: 2026-12-01');
    const prompts = server.requests.map((request) => String(request.messages[0]?.content ?? ''));
    expect(prompts.some((prompt) => prompt.includes('customer-service supervisor'))).toBe(true);
    expect(prompts.some((prompt) => /orders/i.test(prompt) && !prompt.includes('supervisor'))).toBe(true);
  });

  it('canceling from the top cancels the supervisor’s task and the worker’s task under it', async () => {
    const client = await customer();
    const taskId = await startSlowRequest(client);
    const canceled = await system.cli('tasks', 'cancel', taskId);
    expect(canceled.code, `${canceled.stdout}${canceled.stderr}`).toBe(0);
    const task = await untilState(client, taskId, [TaskState.TASK_STATE_CANCELED]);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    for (let i = 0; i < 40; i++) {
      if ((await workerTasks('orders')).some((entry) => entry.status.state === 'TASK_STATE_CANCELED')) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect((await workerTasks('orders')).map((entry) => entry.status.state)).toContain('TASK_STATE_CANCELED');
  });

  it('a supervisor killed mid-task: after the restart the task is still readable and ends failed, with why', async () => {
    const client = await customer();
    const taskId = await startSlowRequest(client);
    const supervisor = system.launched.services.get('supervisor');
    await supervisor?.kill();
    await system.launched.restart('supervisor');
    const read = await system.cli('tasks', 'get', taskId);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain(taskId);
    const fresh = await customer();
    const task = await untilState(
      fresh,
      taskId,
      [TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_COMPLETED],
      45,
    );
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    const why = task.status?.message?.parts[0]?.content;
    expect(why?.$case === 'text' ? why.value : '').toContain(
      'restarted while it was working on this request',
    );
  }, 90_000);

  it('a worker that crashed: the delegation fails within the hop timeout and the customer gets an answer', async () => {
    await system.launched.services.get('inventory')?.kill();
    const run = await system.cli('ask', 'Is the blue kettle in stock?');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('inventory_stock failed');
    expect(run.stdout).toContain('The inventory agent is not reachable right now');
    await system.launched.restart('inventory');
    const back = await system.cli('ask', 'Is the blue kettle in stock?');
    expect(back.stdout).toContain('Blue Enamel Kettle');
  }, 60_000);
});

describe('a service with a wrong setting', () => {
  it('stops at startup, naming the variable and how to fix it', async () => {
    const orders = spawnGroup({
      args: [join(REPO_ROOT, 'examples/customer-service/orders/src/main.ts')],
      env: {
        ...process.env,
        PORT: 'eighty',
        SWITCHBOARD_SERVICE_KEY: 'not json',
        SWITCHBOARD_MODEL: 'gpt-4.1',
      },
      ipc: true,
      name: 'orders',
    });
    const code = await orders.waitForExit({ timeoutMs: 30_000 });
    const stderr = orders.stderr();
    expect(code, stderr).toBe(2);
    expect(stderr).toContain('The orders service cannot start; fix its environment:');
    expect(stderr).toContain('PORT: must be a number');
    expect(stderr).toContain(
      'SWITCHBOARD_SERVICE_KEY: is not JSON: give the private JWK that "switchboard keys generate" printed',
    );
    expect(stderr).toContain('OPENAI_API_KEY: is needed for model "gpt-4.1"');
  });
});
