import { TaskState } from '@a2a-js/sdk';
import type { ChatRequest } from '@switchboard/agent';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from '@switchboard/openai/testing';
import { afterAll, expect, it } from 'vitest';
import { agentOf, delayedOffline } from './support/delayed-offline-model.ts';
import { type PrivateRedis, startPrivateRedis } from './support/private-redis.ts';
import { answerOf, sdkClient, TERMINAL, textMessage, untilState } from './support/sdk-client.ts';
import { NO_CUSTOMER_LIMITS, startTestSystem, type TestSystem } from './support/system.ts';

let redis: PrivateRedis | undefined;
let server: OpenAICompatibleServer | undefined;
let system: TestSystem | undefined;
afterAll(async () => {
  await system?.stop();
  await server?.close();
  await redis?.stop();
});

it('Redis restarts under load: the services reconnect by themselves and every accepted task ends', async () => {
  redis = await startPrivateRedis();
  server = await startOpenAICompatibleServer({
    model: delayedOffline((request: ChatRequest) => (agentOf(request) === 'orders' ? 1_000 : 0)),
    apiKey: 'sk-drill',
  });
  system = await startTestSystem({
    redisUrl: redis.url,
    env: {
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'sk-drill',
      SWITCHBOARD_MODEL: 'scripted-offline',
      ...NO_CUSTOMER_LIMITS,
    },
    serviceEnv: { supervisor: { SWITCHBOARD_HOP_TIMEOUT_MS: '20000' } },
  });
  const { supervisorUrl, token } = system.launched.access;
  const client = await sdkClient(supervisorUrl, token);
  const accepted = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      client.sendMessage(
        textMessage(`Where is my order A100${86 + (i % 12)} and when will it arrive?`, {
          returnImmediately: true,
        }),
      ),
    ),
  );
  const taskIds = accepted.map((task) => ('id' in task ? task.id : ''));
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  await redis.stop();
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  await redis.start();

  const ended = await Promise.all(taskIds.map((taskId) => untilState(client, taskId, TERMINAL, 120)));
  const states = ended.map((task) => TaskState[task.status?.state ?? 0]);
  expect(states.every((state) => state === 'TASK_STATE_COMPLETED' || state === 'TASK_STATE_FAILED')).toBe(
    true,
  );
  // Whatever the outage cost, every service is back: a new request goes through all of them.
  const after = await client.sendMessage(textMessage('Where is my order A10086 and when will it arrive?'));
  expect('status' in after && after.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  expect('status' in after ? answerOf(after) : '').toContain('estimated delivery: 2026-12-01');
  expect(system.exitedServices()).toEqual([]);
}, 240_000);
