import { createHash } from 'node:crypto';
import { type AgentCard, type AgentSkill, TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import {
  type AnyTool,
  defineTool,
  type Logger,
  principalKey,
  silentLogger,
  type ToolContext,
  type ToolRisk,
} from '@switchboard/agent';
import type { ServiceSigner } from '@switchboard/identity';
import {
  APPROVAL_DECISION_KEY,
  CALLER_CONVERSATION_KEY,
  DELEGATED_SKILL_KEY,
  highestRisk,
  PERMISSIONS_EXTENSION_URI,
  PermissionManifest,
  PROGRESS_KEY,
  sendMessageRequest,
  userMessage,
} from '@switchboard/protocol';
import { z } from 'zod';
import { type DelegateOutcome, DelegateStream } from './delegation-result.ts';
import { DelegateError } from './errors.ts';
import { type LiveReplicas, watchReplicas } from './replica-watch.ts';
import { reachesShadowsOnly } from './shadow-peers.ts';
import { signedCallOptions } from './signed-calls.ts';

/** Options of {@link delegationTools}. */
export interface DelegationToolsOptions {
  /** The peers' accepted v1.0 cards (see `acceptPeerCards`), e.g. from the registry. */
  peers: readonly AgentCard[];
  /** An SDK client for a peer, e.g. from `clientFromRegistryEntry` or a `ClientFactory`. */
  clientFor: (card: AgentCard) => Promise<Client> | Client;
  /** How long one delegation may take, approvals aside (default 60 000 ms). */
  timeoutMs?: number;
  /**
   * How many live replicas a peer has, e.g. its instances in the registry. With it, a call to a
   * peer that has none says so in its progress ("orders has no live replica; waiting up to 30 s")
   * and fails after `replicaWaitMs` instead of the hop timeout; without it, the call just waits.
   */
  liveReplicas?: LiveReplicas;
  /**
   * How long a call waits while its peer has no live replica (default 30 000 ms); the hop timeout
   * (`timeoutMs`) still ends the call first when it comes sooner.
   */
  replicaWaitMs?: number;
  /**
   * Signs each call's on-behalf-of assertion: this service (`iss`) calling the peer (`aud`) for the
   * tool context's principal (the end user), bound to the exact request over the queue (with
   * `signQueuedRequests` on the `QueueTransportFactory`). Peers that check assertions refuse calls
   * without one; without a signer the calls carry no credentials.
   */
  signer?: ServiceSigner;
  logger?: Logger;
}

const Request = z.object({
  request: z
    .string()
    .trim()
    .min(1, 'write the request for the agent in full')
    .max(8_000, 'keep the request under 8,000 characters')
    .describe('The user’s request for this agent, in full, with every id, product and detail it needs.'),
});

/** The delegation tool's name for a peer's skill: `orders_order_status`. */
export function delegationToolName(agent: string, skill: string): string {
  return `${agent}_${skill}`.replace(/[^a-zA-Z0-9_]+/g, '_').slice(0, 64);
}

function manifestOf(card: AgentCard): PermissionManifest | undefined {
  const extension = card.capabilities?.extensions.find((ext) => ext.uri === PERMISSIONS_EXTENSION_URI);
  const parsed = PermissionManifest.safeParse(extension?.params);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The highest risk of the tools behind a peer's skill, from its permission manifest (a tool that
 * needs an approval, its own or a further peer's, counts as dangerous), else from the skill's tags.
 */
function peerRisk(card: AgentCard, skill: AgentSkill): ToolRisk {
  const manifest = manifestOf(card);
  const toolNames = manifest?.skills?.find((entry) => entry.id === skill.id)?.tools ?? [skill.id];
  const tools = manifest?.tools.filter((tool) => toolNames.includes(tool.name)) ?? [];
  if (tools.length === 0) {
    if (skill.tags.includes('dangerous') || skill.tags.includes('requires-approval')) return 'dangerous';
    return skill.tags.includes('read') ? 'read' : 'write';
  }
  return tools.some((tool) => tool.requiresApproval) ? 'dangerous' : highestRisk(tools);
}

/** Read or write: a delegate's dangerous tools wait for their own approval, so delegating is never "dangerous". */
const riskOf = (peer: ToolRisk): 'read' | 'write' => (peer === 'read' ? 'read' : 'write');

/** Which peers each delegation tool reaches: live agents, or only their shadows. */
const TARGETS = new WeakMap<AnyTool, 'live' | 'shadow'>();

/**
 * Whether a tool delegates, and to whom: `shadow` when it was built from a card that reaches only
 * a shadow queue (`shadowPeerCard`), `live` for any other delegation tool, undefined for a tool
 * that does not delegate. A shadow's runner refuses to run with `live` ones.
 */
export function delegationTarget(tool: AnyTool): 'live' | 'shadow' | undefined {
  return TARGETS.get(tool);
}

const stableId = (...parts: string[]) =>
  createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);

/**
 * One tool per skill of each peer, for a supervisor: the model asks for `orders_order_status` with
 * the request in full, and the tool sends it to the peer as an A2A message (streamed, so the
 * peer's steps show as progress). The peer's answer is the tool's result. When the peer stops for a
 * human approval, the call waits too (`waitForApproval`), and the decision is handed on to the
 * peer's task when it comes. A peer that does not answer in `timeoutMs` fails the call with a
 * message the model can pass on; its task is canceled. With `liveReplicas`, a peer that has no live
 * replica is named in the progress, and fails the call after `replicaWaitMs` with the same message.
 *
 * The delegate's context id is derived from whose conversation it is (the principal), the
 * supervisor's conversation and the call, so the same call retried after a crash lands in the same
 * conversation (and the peer's intent records hold), while two calls to one peer never share one,
 * nor do two principals that happen to use the same context id.
 *
 * @example
 * const tools = delegationTools({ peers: cards, clientFor: (card) => factory.createFromAgentCard(card) });
 * const supervisor = defineAgent({ name: 'supervisor', instructions, tools });
 */
export function delegationTools({
  peers,
  clientFor,
  timeoutMs = 60_000,
  liveReplicas,
  replicaWaitMs = 30_000,
  signer,
  logger = silentLogger(),
}: DelegationToolsOptions): AnyTool[] {
  if (!Array.isArray(peers) || typeof clientFor !== 'function') {
    throw new DelegateError('INVALID_OPTIONS', {
      message: 'delegationTools needs peers (v1.0 agent cards) and clientFor (card → SDK client).',
    });
  }
  if (!Number.isFinite(replicaWaitMs) || replicaWaitMs <= 0) {
    throw new DelegateError('INVALID_OPTIONS', {
      message: `delegationTools replicaWaitMs must be a positive number of milliseconds, got ${replicaWaitMs}.`,
    });
  }
  return peers.flatMap((card) =>
    card.skills.map((skill: AgentSkill) => {
      const name = delegationToolName(card.name, skill.id);
      const examples =
        skill.examples.length > 0
          ? ` Requests like: ${skill.examples.map((e: string) => `"${e}"`).join('; ')}.`
          : '';
      const peer = peerRisk(card, skill);
      const tool = defineTool({
        name,
        summary: `Ask the ${card.name} agent (${skill.name}): ${skill.description}`,
        whenToUse: `The user needs the ${card.name} agent's ${skill.name.toLowerCase()} skill.${examples}`,
        input: Request,
        risk: riskOf(peer),
        // The peer's approval is the caller's too: its card says a call here can wait for a human.
        leadsTo: peer,
        idempotent: true,
        timeoutMs,
        fallbackMessage: `The ${card.name} agent is not reachable right now, so this part of the request was not done. Tell the user plainly and suggest trying again later.`,
        handler: async ({ request }, context) => {
          const client = await clientFor(card);
          const outcome = await delegate({
            client,
            card,
            skill: skill.id,
            request,
            context,
            signer,
            timeoutMs,
            logger,
            ...(liveReplicas
              ? { replicas: { count: liveReplicas, waitMs: replicaWaitMs, deadline: Date.now() + timeoutMs } }
              : {}),
          });
          reportCost(card.name, outcome, context, logger);
          return settle(card.name, outcome, context);
        },
      });
      TARGETS.set(tool, reachesShadowsOnly(card) ? 'shadow' : 'live');
      return tool;
    }),
  );
}

async function delegate({
  client,
  card,
  skill,
  request,
  context,
  signer,
  timeoutMs,
  logger,
  replicas,
}: {
  client: Client;
  signer: ServiceSigner | undefined;
  timeoutMs: number;
  card: AgentCard;
  skill: string;
  request: string;
  context: ToolContext;
  logger: Logger;
  /** Watch the peer's replicas while waiting on it (see `DelegationToolsOptions.liveReplicas`). */
  replicas?: { count: LiveReplicas; waitMs: number; deadline: number };
}): Promise<DelegateOutcome> {
  const resume = context.approval;
  const delegateTask = resume?.request.delegate;
  // A context id is the caller's to choose, so two users may send the same one: every id below
  // derives from whose conversation it is too, and they never meet in a delegate's conversation.
  const owner = context.principal ? principalKey(context.principal) : '';
  const params = sendMessageRequest({
    message: userMessage({
      // A decision for the same approval but other arguments (asked again after a refused one) is
      // a new message, not a repeat of the first.
      messageId: stableId(
        owner,
        context.conversationId,
        context.callId,
        resume?.decision.approvalId ?? '',
        resume?.decision.argumentsHash ?? '',
      ),
      taskId: delegateTask?.taskId ?? '',
      // One delegate conversation per call: two calls to one peer in the same step must not share
      // (and overwrite) its conversation state; a retry of the same call lands in the same one.
      contextId:
        delegateTask?.contextId ?? stableId(owner, context.conversationId, card.name, context.callId),
      ...(resume
        ? {
            data: {
              [APPROVAL_DECISION_KEY]: {
                approvalId: resume.decision.approvalId,
                decision: resume.decision.decision,
                // What the operator saw and approved: the delegate runs the call only with these arguments.
                argumentsHash: resume.decision.argumentsHash,
                decidedBy: resume.decision.decidedBy,
                ...(resume.decision.reason ? { reason: resume.decision.reason } : {}),
              },
            },
          }
        : { text: request }),
      metadata: {
        [DELEGATED_SKILL_KEY]: skill,
        [CALLER_CONVERSATION_KEY]: `${owner}/${context.conversationId}`,
        // Only the delegate's tool lines are passed on (see delegateProgress): its steps are not sent.
        [PROGRESS_KEY]: 'tools',
      },
    }),
  });
  const stream = new DelegateStream((text) => {
    const line = delegateProgress(text);
    if (line) context.report(`${card.name}: ${line}`);
  });
  context.report(
    resume ? `handing the ${resume.decision.decision} decision to ${card.name}` : `asking ${card.name}`,
  );
  const watch = replicas
    ? watchReplicas({
        agent: card.name,
        liveReplicas: replicas.count,
        waitMs: replicas.waitMs,
        deadline: replicas.deadline,
        report: (text) => context.report(text),
        logger,
      })
    : undefined;
  const signal = watch ? AbortSignal.any([context.signal, watch.signal]) : context.signal;
  // Each call carries its own assertion, for the end user, bound to this one request.
  const credentials = (lifetimeMs: number) =>
    signer
      ? signedCallOptions({
          signer,
          audience: card.name,
          principal: context.principal,
          lifetimeMs,
          protocol: client.transport.protocolName,
        })
      : Promise.resolve({});
  try {
    for await (const event of client.sendMessageStream(params, { ...(await credentials(timeoutMs)), signal }))
      stream.read(event);
  } catch (error) {
    // Aborting withdrew the request from the queue if no replica had taken it, so it will not run
    // later for nobody.
    if (watch?.signal.aborted && !context.signal.aborted) throw watch.signal.reason;
    const { taskId } = stream.outcome;
    if (context.signal.aborted && taskId) {
      await client
        .cancelTask(
          { tenant: '', id: taskId, metadata: {} },
          { ...(await credentials(2_000)), signal: AbortSignal.timeout(2_000) },
        )
        .catch((cancelError: unknown) =>
          logger.warn({ err: cancelError, taskId, agent: card.name }, 'could not cancel delegate task'),
        );
    }
    throw error;
  } finally {
    watch?.stop();
  }
  return stream.outcome;
}

/** A delegate's progress line worth passing on: its tool calls, without its own step numbers. */
function delegateProgress(text: string): string | undefined {
  const line = text.replace(/^Step \d+: /, '');
  return line === 'thinking' ? undefined : line;
}

const STATE_WORDS: Partial<Record<TaskState, string>> = {
  [TaskState.TASK_STATE_COMPLETED]: 'completed',
  [TaskState.TASK_STATE_FAILED]: 'failed',
  [TaskState.TASK_STATE_CANCELED]: 'canceled',
  [TaskState.TASK_STATE_REJECTED]: 'rejected',
  [TaskState.TASK_STATE_INPUT_REQUIRED]: 'needs_input',
  [TaskState.TASK_STATE_AUTH_REQUIRED]: 'needs_auth',
};

/**
 * Adds the delegate's reported cost (its run and everything it delegated) to the caller's run. A
 * cost that does not check out is left out of the totals, with a log line: a peer's bad figures
 * never fail the call nor poison the request's totals.
 */
function reportCost(agent: string, outcome: DelegateOutcome, context: ToolContext, logger: Logger): void {
  const { cost } = outcome;
  if (cost.kind === 'cost') context.reportCost?.(cost.cost);
  else if (cost.kind === 'invalid') {
    logger.warn(
      { agent, taskId: outcome.taskId, problem: cost.problem },
      'ignored the cost a delegate reported: it does not check out',
    );
  }
}

function settle(agent: string, outcome: DelegateOutcome, context: ToolContext) {
  const [approval] = outcome.pendingApprovals;
  if (outcome.state === TaskState.TASK_STATE_INPUT_REQUIRED && approval) {
    const { conversationId: _c, toolCallId: _t, delegate: _d, ...request } = approval;
    return context.waitForApproval({
      ...request,
      delegate: { agent, taskId: outcome.taskId, contextId: outcome.contextId },
    });
  }
  const status = STATE_WORDS[outcome.state];
  if (!status) {
    throw new DelegateError('BAD_REPLY', {
      message: `The ${agent} agent's stream ended with its task still ${TaskState[outcome.state] ?? outcome.state}.`,
    });
  }
  return { agent, status, answer: outcome.answer };
}
