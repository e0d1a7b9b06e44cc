import { randomUUID } from 'node:crypto';
import {
  type Agent,
  type AgentTracer,
  type AuditSink,
  type ChatModel,
  type CredentialVault,
  type Logger,
  MemoryIntentStore,
  runAgent,
  silentLogger,
} from '@switchboard/agent';
import { delegationTarget } from '@switchboard/delegate';
import type { Cluster, Redis } from 'ioredis';
import { activeTraceId } from './active-trace.ts';
import { ShadowError } from './errors.ts';
import { watchEventLoop } from './loop-busy.ts';
import { type ShadowCandidate, type ShadowProposal, shadowAgent } from './shadow-agent.ts';
import type { ShadowCopyStream } from './shadow-copy-stream.ts';
import type { ShadowPairStore } from './shadow-pair-store.ts';
import type { ShadowCopy, ShadowSide, ShadowToolCall } from './shadow-records.ts';
import { riskIn } from './tool-risk-of.ts';

/** Options of {@link startShadowWorker}. */
export interface ShadowWorkerOptions {
  /**
   * The live agent's definition, or for a supervisor a function giving it with delegation tools
   * built from `shadowPeerCard`s (its read delegations must reach the workers' shadows).
   */
  agent: Agent | (() => Agent);
  /** The model the shadow runs (the candidate model, or the live one when only the prompt or tools differ). */
  model: ChatModel;
  candidate?: ShadowCandidate;
  copies: ShadowCopyStream;
  pairs: ShadowPairStore;
  /** A connection of the worker's own: reading copies blocks it. Closed by `close()`. */
  redis: Redis | Cluster;
  /** Copies run at once (default 4). */
  concurrency?: number;
  /**
   * Yield to live work in this process: while its event loop was busier than this share (0 to 1) over
   * the last quarter second, take no new copy (default 1: never wait, for a worker in a process of its
   * own). Copies wait in their stream meanwhile; one that waits past the stream's length is never run,
   * and its pair stays without a shadow side (the report's "pairs" against "compared").
   */
  yieldAbove?: number;
  credentials?: CredentialVault | Readonly<Record<string, string>>;
  audit?: AuditSink;
  tracer?: AgentTracer;
  maxSteps?: number;
  logger?: Logger;
}

/** A running shadow worker. */
export interface ShadowWorker {
  /** Copies run so far. */
  readonly handled: number;
  /** Quarter seconds it waited for live work (see `yieldAbove`). */
  readonly yielded: number;
  /** Stops taking copies, lets the running ones finish, and closes its connection. */
  close(): Promise<void>;
}

/**
 * Runs an agent's shadow: takes the copies of live requests from its {@link ShadowCopyStream}, runs
 * each with the shadow agent (`shadowAgent`: read tools run, write and dangerous calls are recorded
 * with their validated arguments and never run), and records the shadow's side of the pair: answer,
 * tools, proposed writes, steps, tokens, latency and trace id. Nothing it does answers anyone.
 *
 * An agent with delegation tools that reach live peers is refused (at start, and for each copy
 * when the agent changes while serving): a shadow supervisor delegates to the workers' shadows only,
 * through tools built from `shadowPeerCard`s.
 */
export function startShadowWorker({
  agent,
  model,
  candidate = {},
  copies,
  pairs,
  redis,
  concurrency = 4,
  yieldAbove = 1,
  logger = silentLogger(),
  ...runOptions
}: ShadowWorkerOptions): ShadowWorker {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new ShadowError('INVALID_OPTIONS', {
      message: `startShadowWorker concurrency must be a whole number of at least 1, got ${concurrency}.`,
    });
  }
  if (!(yieldAbove > 0 && yieldAbove <= 1)) {
    throw new ShadowError('INVALID_OPTIONS', {
      message: `startShadowWorker yieldAbove must be a share above 0 and at most 1 (1: never wait), got ${yieldAbove}.`,
    });
  }
  const live = () => (typeof agent === 'function' ? agent() : agent);
  const reachingLive = liveDelegations(live());
  if (reachingLive.length > 0) throw liveDelegationError(live().name, reachingLive);
  const proposals = new Map<string, ShadowProposal[]>();
  const record = (proposal: ShadowProposal) => {
    proposals.get(proposal.conversationId)?.push(proposal);
  };
  const consumer = `${live().name}-${randomUUID()}`;
  let handled = 0;
  let yielded = 0;
  let stopping = false;
  const loopWatch = yieldAbove < 1 ? watchEventLoop() : undefined;

  const yieldToLive = async () => {
    while (!stopping && loopWatch && loopWatch.busy() > yieldAbove) {
      yielded += 1;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  const runCopy = async (copy: ShadowCopy) => {
    // A copy read while the process is busy waits for the live work to ease first.
    await yieldToLive();
    const current = live();
    const reaching = liveDelegations(current);
    if (reaching.length > 0) {
      logger.error(
        { err: liveDelegationError(current.name, reaching), taskId: copy.taskId },
        'shadow copy not run',
      );
      return;
    }
    const conversationId = `shadow:${copy.taskId}`;
    proposals.set(conversationId, []);
    const t0 = performance.now();
    // The run's own trace: its events are emitted inside its invoke_agent span (with a tracer).
    let traceId: string | undefined;
    try {
      const result = await runAgent({
        agent: shadowAgent({ agent: current, candidate, record }),
        model,
        input: copy.text,
        ...(copy.history ? { history: copy.history } : {}),
        conversationId,
        ...(copy.principal ? { principal: copy.principal } : {}),
        // Its own intents: a shadow never holds, or replays, a live action's record.
        intents: new MemoryIntentStore(),
        logger,
        onEvent: () => {
          traceId ??= activeTraceId();
        },
        ...runOptions,
      });
      const proposed = proposals.get(conversationId) ?? [];
      const tools = result.toolCalls.map((call): ShadowToolCall => {
        const risk = riskIn(current, call.tool);
        const made = proposed.find((p) => p.callId === call.callId);
        return {
          tool: call.tool,
          risk,
          status: made ? 'recorded' : call.status,
          ...(made ? { arguments: made.arguments } : {}),
        };
      });
      const side: ShadowSide = {
        role: 'shadow',
        by: model.modelId,
        answer: result.output,
        outcome: result.stopReason,
        tools,
        steps: result.steps.length,
        tokens: { prompt: result.usage.promptTokens, completion: result.usage.completionTokens },
        latencyMs: Math.round(performance.now() - t0),
        ...(traceId ? { traceId } : {}),
        finishedAt: new Date().toISOString(),
      };
      await pairs.record(copy.taskId, side);
    } catch (error) {
      logger.warn({ err: error, taskId: copy.taskId }, 'shadow run failed');
    } finally {
      proposals.delete(conversationId);
      handled += 1;
    }
  };

  const loop = (async () => {
    while (!stopping) {
      await yieldToLive();
      try {
        await copies.take({ redis, consumer, count: concurrency, blockMs: 500, handle: runCopy });
      } catch (error) {
        if (stopping) break;
        logger.warn({ err: error }, 'shadow worker could not read copies; retrying in 1 s');
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  })();

  return {
    get handled() {
      return handled;
    },
    get yielded() {
      return yielded;
    },
    async close() {
      stopping = true;
      await loop;
      loopWatch?.stop();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** The agent's delegation tools that would reach a live peer. */
function liveDelegations(agent: Agent): string[] {
  return agent.toolset
    .list()
    .filter((tool) => delegationTarget(tool) === 'live')
    .map((tool) => tool.name);
}

function liveDelegationError(agent: string, tools: readonly string[]): ShadowError {
  return new ShadowError('INVALID_OPTIONS', {
    message: `The shadow of ${agent} would delegate to live agents (${tools.join(', ')}). Build its delegation tools from the peers' shadow cards: delegationTools({ peers: cards.map(shadowPeerCard), ... }).`,
  });
}
