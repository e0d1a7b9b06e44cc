import type { QueueTransportFactory } from '@switchboard/a2a-bullmq';
import type { Agent, AgentTracer, ChatModel, Logger, ToolRouter } from '@switchboard/agent';
import type { AgentRegistry } from '@switchboard/delegate';
import type { ServiceSigner } from '@switchboard/identity';
import type { SkillSpec } from '@switchboard/protocol';
import type { RedisConnection } from '@switchboard/redis';
import type { ServiceConfig } from './config/service-config.ts';

/** What a service's `setup` gets: the connections and parts the kit has made ready. */
export interface ServiceContext {
  config: ServiceConfig;
  /** The service's Redis connection (BullMQ-ready; one node or a cluster); the kit closes it. */
  redis: RedisConnection;
  model: ChatModel;
  logger: Logger;
  tracer: AgentTracer;
  registry: AgentRegistry;
  /**
   * The queue binding's client side, for calling peers; the kit closes it. A call made with
   * `signedCallOptions` (as `delegationTools` makes them) carries an assertion bound to its request.
   */
  queue: QueueTransportFactory;
  /** Signs this service's on-behalf-of assertions (its `SWITCHBOARD_SERVICE_KEY`), for `delegationTools`. */
  signer: ServiceSigner;
}

/** What a service's `setup` returns: the agent it hosts and how its card shows it. */
export interface AgentSetup {
  /** The agent, as it is at startup: its name and skills make the card. */
  agent: Agent;
  /** The agent to run each new request with, when it changes while serving (default `agent`). */
  currentAgent?: () => Agent;
  /** The card's skills, grouping tools (default: one per tool). */
  skills?: readonly SkillSpec[];
  /**
   * For an agent with many tools: narrows the tools each run offers the model (see `ToolRouter`), and
   * answers a request none of them serves, or that does not say which, before any model call.
   * Default: every tool is offered. With `new ToolRouter({ embedder: new LocalEmbedder() })`
   * (`@switchboard/embeddings-local`) it recalls tools by meaning as well as by words.
   */
  router?: ToolRouter;
  /**
   * The agent its shadow runs, when it runs one (`<AGENT>_SHADOW_*`) and it delegates: the same agent
   * with delegation tools built from the peers' shadow cards (`shadowPeerCard`), so the shadow's
   * delegations reach the workers' shadows. Default `currentAgent` or `agent`; a shadow whose
   * delegation tools reach live peers does not run.
   */
  shadowAgent?: () => Agent;
  /** Called once on shutdown, before Redis closes. */
  close?: () => Promise<void>;
}
