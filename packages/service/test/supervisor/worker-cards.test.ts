import { randomUUID } from 'node:crypto';
import { BULLMQ_BINDING, defaultQueueAddress, queueUrl } from '@switchboard/a2a-bullmq';
import { defineAgent, defineTool, silentLogger } from '@switchboard/agent';
import { MemoryLogger } from '@switchboard/agent/testing';
import { cardSigner } from '@switchboard/cards';
import type { PeerCardSignatures } from '@switchboard/delegate';
import { AgentRegistry, findWorkers, onceEach, workerCards } from '@switchboard/delegate';
import { buildAgentCard } from '@switchboard/host';
import { generateServiceKey, serviceOfKeyId, trustedKeys } from '@switchboard/identity';
import { createRedisConnection } from '@switchboard/redis';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const redis = createRedisConnection({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
const namespace = `sup-cards-${randomUUID().slice(0, 8)}`;
afterAll(async () => {
  const keys = await redis.keys(`*${namespace}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const orders = generateServiceKey({ service: 'orders' });
const comms = generateServiceKey({ service: 'comms' });
const inventory = generateServiceKey({ service: 'inventory' });
/** What the supervisor trusts: every service's public key but inventory's. */
const keys = trustedKeys({
  source: { kind: 'inline', keySet: { keys: [orders.publicKey, comms.publicKey] } },
  logger: silentLogger(),
}).resolve;

const cardOf = (name: string) =>
  buildAgentCard({
    agent: defineAgent({
      name,
      description: `The ${name} agent.`,
      instructions: 'Help.',
      tools: [
        defineTool({
          name: 'look_up',
          summary: `Look something up in ${name}.`,
          whenToUse: 'Always.',
          input: z.object({}),
          risk: 'read',
          handler: () => ({}),
        }),
      ],
    }),
    interfaces: [{ url: queueUrl(defaultQueueAddress(name, namespace)), protocolBinding: BULLMQ_BINDING }],
  });

describe('the supervisor’s check of its workers’ cards', () => {
  it('with policy signed, keeps the worker whose card its own key signed and refuses the others, one line each', async () => {
    const registry = new AgentRegistry({ redis, namespace, logger: silentLogger() });
    const registrations = await Promise.all([
      registry.register({
        card: await cardSigner({ key: orders.privateKey })(cardOf('orders')),
        instanceId: 'o-1',
      }),
      // Signed, but by comms' key: a trusted key, not the one allowed for this card.
      registry.register({
        card: await cardSigner({ key: comms.privateKey })(cardOf('billing')),
        instanceId: 'b-1',
      }),
      registry.register({
        card: await cardSigner({ key: inventory.privateKey })(cardOf('inventory')),
        instanceId: 'i-1',
      }),
      registry.register({ card: cardOf('comms'), instanceId: 'c-1' }),
    ]);
    const signatures: PeerCardSignatures = {
      keys,
      policy: 'signed',
      mayCardSign: (agent, kid) => serviceOfKeyId(kid) === agent,
    };
    const { entries } = await findWorkers({ registry, names: ['orders', 'billing', 'inventory', 'comms'] });
    const logger = new MemoryLogger();
    const cardLogger = onceEach(logger);

    const peers = await workerCards({ entries, signatures, logger: cardLogger });
    expect(peers.map((card) => card.name)).toEqual(['orders']);
    expect(logger.entries.map((entry) => [entry.level, entry.fields.agent, entry.message]).sort()).toEqual([
      [
        'warn',
        'billing',
        expect.stringMatching(
          /^refusing the card of agent "billing": it is signed by "comms:.*", a trusted key, but not one allowed/,
        ),
      ],
      ['warn', 'comms', 'refusing the card of agent "comms": the card is unsigned'],
      [
        'warn',
        'inventory',
        expect.stringMatching(
          /^refusing the card of agent "inventory": its signature is not valid: no trusted key has the kid "inventory:/,
        ),
      ],
    ]);

    // Read again (the supervisor does, every few seconds): nothing new is said.
    await workerCards({ entries, signatures, logger: cardLogger });
    expect(logger.entries).toHaveLength(3);

    // Policy any: the same cards are used, each with a warning that says why it is suspect.
    const lenient = new MemoryLogger();
    const all = await workerCards({ entries, signatures: { ...signatures, policy: 'any' }, logger: lenient });
    expect(all.map((card) => card.name).sort()).toEqual(['billing', 'comms', 'inventory', 'orders']);
    expect(lenient.entries.map((entry) => entry.message).sort()).toEqual([
      expect.stringMatching(/^the card of agent "billing" is accepted though it is signed by "comms:/),
      'the card of agent "comms" is accepted though the card is unsigned (the policy \'signed\' refuses such cards)',
      expect.stringMatching(/^the card of agent "inventory" is accepted though its signature is not valid/),
    ]);
    await Promise.all(registrations.map((registration) => registration.stop()));
  });

  it('refuses a card changed after signing (here, in the registry)', async () => {
    const registry = new AgentRegistry({ redis, namespace: `${namespace}-t`, logger: silentLogger() });
    const signed = await cardSigner({ key: orders.privateKey })(cardOf('orders'));
    const registration = await registry.register({
      card: { ...signed, description: 'Refunds anything.' },
      instanceId: 'o-1',
    });
    const logger = new MemoryLogger();
    const { entries } = await findWorkers({ registry, names: ['orders'] });
    const peers = await workerCards({ entries, signatures: { keys, policy: 'signed' }, logger });
    expect(peers).toEqual([]);
    expect(logger.entries.map((entry) => entry.message)).toEqual([
      expect.stringMatching(
        /^refusing the card of agent "orders": its signature is not valid: the signature by "orders:.*" does not match the card/,
      ),
    ]);
    await registration.stop();
  });
});
