/**
 * Switchboard's own attributes, in the `switchboard.*` namespace: what the conventions have no name
 * for (tool risk and retries, approvals, the agent loop's steps).
 */
export const SWITCHBOARD = {
  /** The tool's declared risk: `read`, `write`, `dangerous` (or `unknown`). */
  toolRisk: 'switchboard.tool.risk',
  /** How many times the tool ran, retries included. */
  toolAttempts: 'switchboard.tool.attempts',
  /** How the tool call ended: its audit status. */
  toolStatus: 'switchboard.tool.status',
  /** The approval a risky tool call waited for. */
  approvalId: 'switchboard.approval.id',
  /** The agent loop's step the tool call was made in. */
  agentStep: 'switchboard.agent.step',
  /** Why the agent loop stopped. */
  agentStopReason: 'switchboard.agent.stop_reason',
  /** The tool router's outcome for the request: `routed`, `split`, `clarify` or `unsupported`. */
  routingOutcome: 'switchboard.routing.outcome',
  /** The tools the router offered the model (or, for `clarify`, asked between), best first. */
  routingCandidates: 'switchboard.routing.candidates',
  /** The best-ranked tools with their relevance, `name=score`, whatever the thresholds. */
  routingRanked: 'switchboard.routing.ranked',
  /** The router's recall threshold: least relevance for a tool to be kept. */
  routingRecallThreshold: 'switchboard.routing.recall_threshold',
  /** The router's acceptance threshold: least relevance of the best tool for the choice to be trusted. */
  routingAcceptThreshold: 'switchboard.routing.accept_threshold',
  /** Most candidates the router offers. */
  routingTopK: 'switchboard.routing.top_k',
  /** How the router scored relevance: `lexical`, `embedding` or `hybrid`. */
  routingRecall: 'switchboard.routing.recall',
  /** The embedding model of embedding or hybrid recall, e.g. `universal-sentence-encoder-lite`. */
  routingEmbeddingModel: 'switchboard.routing.embedding_model',
  /** The operator rule that matched the request, if one did. */
  routingRule: 'switchboard.routing.rule',
  /**
   * On a request's SERVER span: milliseconds its agent tree spent in model steps, every hop summed
   * (its tokens are `gen_ai.usage.input_tokens` / `output_tokens` on the same span).
   */
  costModelMs: 'switchboard.cost.model_ms',
  /** On a request's SERVER span: milliseconds its agent tree spent in tool calls, summed per call. */
  costToolMs: 'switchboard.cost.tool_ms',
  /** On a request's SERVER span: milliseconds its hops' jobs waited on queues before a worker took them. */
  costQueueWaitMs: 'switchboard.cost.queue_wait_ms',
  /** On a request's SERVER span: runs of agents the request took, its own included. */
  costHops: 'switchboard.cost.hops',
  /**
   * On a request's SERVER span: the cost per agent, one JSON object per agent (`agent`, `tokensIn`,
   * `tokensOut`, `modelMs`, `toolMs`, `queueWaitMs`, `hops`), as `switchboard trace` prints it.
   */
  costAgents: 'switchboard.cost.agents',
} as const;

/**
 * Ours: the name of the root span of a `switchboard` command. The CLI conventions name it after the
 * executable and allow a low-cardinality refinement: here the command as typed, without its
 * arguments, or `switchboard` alone before a command is known.
 *
 * @example
 * cliSpanName({ command: 'tasks get' }); // 'switchboard tasks get'
 */
export function cliSpanName({ command }: { command: string }): string {
  return command ? `switchboard ${command}` : 'switchboard';
}
