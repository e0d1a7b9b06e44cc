import { randomUUID } from 'node:crypto';
import {
  BULLMQ_BINDING,
  defaultQueueAddress,
  QueueTransportFactory,
  queueUrl,
} from '@switchboard/a2a-bullmq';
import { defineAgent, defineTool, silentLogger } from '@switchboard/agent';
import { AgentRegistry, delegationTarget, WorkerTools } from '@switchboard/delegate';
import { buildAgentCard } from '@switchboard/host';
import { generateServiceKey, serviceSigner } from '@switchboard/identity';
import type { SkillSpec } from '@switchboard/protocol';
import { createRedisConnection } from '@switchboard/redis';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const FORECAST_SKILLS: readonly SkillSpec[] = [
  {
    id: 'forecast',
    name: 'Forecast',
    description: 'The weather forecast for a city.',
    tags: ['weather'],
    tools: ['forecast'],
  },
];

const redis = createRedisConnection({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
const namespace = `sup-test-${randomUUID().slice(0, 8)}`;
afterAll(async () => {
  const keys = await redis.keys(`*${namespace}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe('the supervisor’s worker tools', () => {
  it('pick up a worker that registers after startup, and keep one whose entry lapses (its queue still takes the work)', async () => {
    const registry = new AgentRegistry({ redis, namespace, logger: silentLogger() });
    const queue = new QueueTransportFactory({ redis, timeoutMs: 1_000 });
    const workers = new WorkerTools(
      {
        registry,
        queue,
        supervisor: { description: 'The travel desk.', instructions: 'Delegate weather to weather.' },
        names: ['weather'],
        hopTimeoutMs: 1_000,
        workerWaitMs: 1_000,
        signer: serviceSigner({ key: generateServiceKey({ service: 'supervisor' }).privateKey }),
        logger: silentLogger(),
      },
      [],
    );
    expect(workers.agent.toolset.names).toEqual([]);

    const agent = defineAgent({
      name: 'weather',
      instructions: 'Say the forecast.',
      tools: [
        defineTool({
          name: 'forecast',
          summary: 'The forecast for a city.',
          whenToUse: 'Always.',
          input: z.object({ city: z.string() }),
          risk: 'read',
          handler: ({ city }) => ({ city, sky: 'clear' }),
        }),
      ],
    });
    const card = buildAgentCard({
      agent,
      skills: FORECAST_SKILLS,
      interfaces: [
        { url: queueUrl(defaultQueueAddress('weather', namespace)), protocolBinding: BULLMQ_BINDING },
      ],
    });
    const registration = await registry.register({ card, instanceId: 'weather-1' });
    await workers.refresh();
    expect(workers.agent.toolset.names).toEqual(
      FORECAST_SKILLS.map((skill) => `weather_${skill.id.replace(/-/g, '_')}`),
    );
    expect(workers.agent.name).toBe('supervisor');
    // Its shadow has the same tools, each reaching the worker's shadow queue, never the live one.
    expect(workers.shadowAgent.toolset.names).toEqual(workers.agent.toolset.names);
    expect(workers.agent.toolset.list().map(delegationTarget)).toEqual(['live']);
    expect(workers.shadowAgent.toolset.list().map(delegationTarget)).toEqual(['shadow']);

    const tools = workers.agent.toolset.names;
    // Crashed, restarting or scaled to zero: the tools stay, and a delegation waits for a replica.
    await registration.stop();
    await workers.refresh();
    expect(workers.agent.toolset.names).toEqual(tools);
    // Back with another skill: the new card replaces the last one.
    const renamed = FORECAST_SKILLS.map((skill) => ({ ...skill, id: `${skill.id}-levels` }));
    const changed = buildAgentCard({
      agent,
      skills: renamed,
      interfaces: [
        { url: queueUrl(defaultQueueAddress('weather', namespace)), protocolBinding: BULLMQ_BINDING },
      ],
    });
    const again = await registry.register({ card: changed, instanceId: 'weather-2' });
    await workers.refresh();
    expect(workers.agent.toolset.names).toEqual(
      renamed.map((skill) => `weather_${skill.id.replace(/-/g, '_')}`),
    );
    await again.stop();
    await queue.close();
  });
});
