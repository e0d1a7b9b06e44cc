/**
 * The data part key that carries a decision taken on the approval board to the waiting task (the
 * board's own delivery, or a peer service handing it on); see `AgentExecutorOptions.trusted`.
 */
export const APPROVAL_DECISION_KEY = 'approvalDecision';

/**
 * The message metadata key a delegating agent sets to its own conversation, as `<owner>/<id>` (the
 * principal key it works for, then its conversation id): a trusted caller's (see `trusted`)
 * delegations share intent records across calls of that conversation, and only of that owner's.
 */
export const CALLER_CONVERSATION_KEY = 'switchboard.callerConversation';

/** The task metadata key that names the conversation a task belongs to. */
export const CONVERSATION_KEY = 'switchboard.conversation';

/**
 * Message metadata of a request: which progress the caller reads. `tools` (what a delegating agent
 * asks for) leaves out the "Step n: thinking" lines; anything else, or none, gets every line.
 */
export const PROGRESS_KEY = 'switchboard.progress';

/**
 * Message metadata: `true` on a progress line that is streamed (and kept in the task's event
 * stream) but not stored in the task's history, such as a delegate's progress passed on.
 */
export const TRANSIENT_KEY = 'switchboard.transient';

/** The metadata key naming the skill a delegation was made for. */
export const DELEGATED_SKILL_KEY = 'switchboard.skill';

/**
 * Task metadata: the principal a task was started by, whom its tools act for for its whole life
 * (written by the executor; callers cannot set task metadata).
 */
export const PRINCIPAL_KEY = 'switchboard.principal';

/**
 * Event metadata: the position of a streamed task event in its task's event stream, a whole number
 * that counts the task's events from 1 (each event one more, like the next A2A draft's task
 * "generation"). `SubscribeToTask` streams carry it on every event (on the first one, the task, it is
 * the position the snapshot is as of) and the HTTP binding sends it as the SSE `id:`; give it back as
 * `Last-Event-ID` to resume after it.
 */
export const EVENT_POSITION_KEY = 'switchboard.position';

/**
 * Event metadata: why the server ended a `SubscribeToTask` stream whose task has not finished, on
 * the stream's last event (a status update with the task's current status, at the position of the
 * last event sent). `'idle'`: nothing happened for the host's idle time. Resubscribe, with
 * `Last-Event-ID` set to that position, to get what comes next.
 */
export const STREAM_END_KEY = 'switchboard.streamEnd';

/**
 * Task and final-event metadata: what the task's latest run cost, across its whole agent tree (a
 * `RequestCost` of `@switchboard/agent`: the agent's own run and everything it delegated, per agent
 * and in total). Written by the executor when a run ends; a delegating caller adds it into its own
 * run's cost, after checking it with {@link readTaskCost}.
 */
export const COST_KEY = 'switchboard.cost';
