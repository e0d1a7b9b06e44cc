import type { AgentCard } from '@a2a-js/sdk';
import type { A2ARequestHandler, OwnerResolver, TaskStore } from '@a2a-js/sdk/server';
import type { Tracer } from '@opentelemetry/api';
import { stderrLogger } from '@switchboard/agent';
import { HostError } from './errors.ts';
import { type AgentExecutorOptions, SwitchboardAgentExecutor } from './executor/agent-executor.ts';
import type { ExecutorTap } from './executor/executor-tap.ts';
import { agentLayers } from './pipeline.ts';
import type { RedisTaskEventLog } from './tasks/task-event-log.ts';

/** Options of {@link createAgentHandler}: the executor's options plus the card and the stores. */
export interface AgentHandlerOptions extends Omit<AgentExecutorOptions, 'ownerResolver'> {
  /** The agent's v1.0 card; its interfaces decide which protocol versions each binding accepts. */
  card: AgentCard;
  /** Where tasks live (default: in memory, this process only). */
  taskStore?: TaskStore;
  /**
   * Whose tasks a caller may see and continue (default: the SDK's per-user scope, by
   * `user.userName`). Return one value for every caller to share tasks between users, e.g. so an
   * operator can approve a task another user started. Used by the default task store and the
   * event-bus manager; a `taskStore` you pass does its own scoping.
   */
  ownerResolver?: OwnerResolver;
  /**
   * Where every task event is also appended, so `SubscribeToTask` follows a task from any replica,
   * resumes after a position (`Last-Event-ID`) and several subscribers each get every event (default:
   * none, the SDK's in-process bus: a subscriber on another replica gets the task and nothing more).
   * See `RedisTaskEventLog` and `followTaskEvents`.
   */
  eventLog?: RedisTaskEventLog;
  /**
   * The OpenTelemetry tracer of the A2A SERVER spans (`SendMessage`, `GetTask`, …; default: the
   * global provider's `@switchboard/a2a` tracer, a no-op until an SDK is registered). Not to be
   * confused with `tracer`, the agent runtime's port for `invoke_agent`, `chat` and `execute_tool`.
   */
  requestTracer?: Tracer;
  /**
   * Wraps the executor, e.g. to run a shadow beside this agent (`ShadowTap` of `@switchboard/shadow`:
   * each new task in its share is copied to the shadow's queue as it is accepted, and the live side of
   * the pair is recorded when it ends). The live run neither waits for it nor changes; the card does
   * not change either.
   */
  shadow?: ExecutorTap;
}

/**
 * An agent ready to serve: hand `requestHandler` to the HTTP app, or to the queue server of
 * `@switchboard/a2a-bullmq` wrapped in `deduplicateMessages` (each message runs once, whatever the
 * queue delivers). It is traced: each call is a SERVER span named after its A2A method (see
 * `tracedRequestHandler`).
 */
export interface AgentHandler {
  readonly requestHandler: A2ARequestHandler;
  readonly executor: SwitchboardAgentExecutor;
  readonly card: AgentCard;
}

/**
 * Composes an agent server: the SDK's `DefaultRequestHandler` over a task store and a
 * {@link SwitchboardAgentExecutor}, traced with `tracedRequestHandler`. The one place that does, so
 * every binding (HTTP, queue) serves the same tasks the same way, under the same spans.
 *
 * @example
 * const hosted = createAgentHandler({ agent, model, card, approvals: new MemoryApprovalBoard() });
 * const app = createA2aHttpApp({ requestHandler: hosted.requestHandler, card: hosted.card });
 */
export function createAgentHandler({
  card,
  taskStore,
  ownerResolver,
  eventLog,
  requestTracer,
  shadow,
  ...executorOptions
}: AgentHandlerOptions): AgentHandler {
  const problems: string[] = [];
  if (!executorOptions.agent?.toolset) problems.push('agent must come from defineAgent(...)');
  if (typeof executorOptions.model?.generate !== 'function') {
    problems.push('model must be a ChatModel, e.g. new OfflineModel()');
  }
  if (!card?.name || !Array.isArray(card.supportedInterfaces) || card.supportedInterfaces.length === 0) {
    problems.push(
      'card must be a v1.0 AgentCard with at least one interface, e.g. buildAgentCard({ agent, interfaces })',
    );
  }
  if (problems.length > 0) {
    throw new HostError('INVALID_OPTIONS', {
      message: `createAgentHandler options are not valid: ${problems.join('; ')}.`,
    });
  }
  const executor = new SwitchboardAgentExecutor({
    ...executorOptions,
    ...(ownerResolver ? { ownerResolver } : {}),
  });
  const requestHandler = agentLayers({
    card,
    executor,
    taskStore,
    ownerResolver,
    eventLog,
    requestTracer,
    tap: shadow,
    approvals: executorOptions.approvals,
    logger: executorOptions.logger ?? stderrLogger(),
  });
  return { requestHandler, executor, card };
}
