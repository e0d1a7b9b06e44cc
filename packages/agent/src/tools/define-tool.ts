import { z } from 'zod';
import { AgentError } from '../errors.ts';
import type { Logger } from '../observe/logger.ts';
import type { RequestCost } from '../observe/request-cost.ts';
import type { ApprovalDecision, ApprovalRequest, ApprovalText } from '../policy/approvals.ts';
import type { Credentials } from '../policy/credentials.ts';
import type { Principal } from '../policy/principal.ts';
import { TOOL_RISKS, type ToolRisk } from '../policy/tool-risk.ts';
import type { ApprovalWait, DelegatedApproval } from './approval-wait.ts';

/** What a handler receives besides its validated arguments. */
export interface ToolContext {
  /** Aborted on timeout or when the run is canceled; pass it on to I/O. */
  signal: AbortSignal;
  conversationId: string;
  callId: string;
  /** 1 on the first try, 2 on the first retry, ... */
  attempt: number;
  /**
   * Stable for the same tool and arguments in one conversation: pass it to downstream APIs so that a
   * retried or recovered job does not act twice.
   */
  idempotencyKey: string;
  credentials: Credentials;
  /**
   * Who is asking (the end user when an agent works on someone's behalf): what the tool's data
   * decides access on. Undefined when the run was given none; treat that as no access.
   */
  principal: Principal | undefined;
  logger: Logger;
  /**
   * Stops the run until a human decides, for an approval someone else asked for (a delegate agent's
   * task that waits in `input-required`). Return its result from the handler; the call runs again
   * with {@link ToolContext.approval} set once the decision is in.
   */
  waitForApproval(request: DelegatedApproval): ApprovalWait;
  /** Tells the run's listeners how the call is getting on, e.g. "orders: running get_order". */
  report(text: string): void;
  /**
   * Adds what the work this call handed on cost (a delegate agent's runs and everything it
   * delegated) to the run's cost; validate a peer's figures before reporting them. Optional: a test's
   * hand-made context may leave it out, and callers write `context.reportCost?.(cost)`.
   */
  reportCost?(cost: RequestCost): void;
  /** On the run after {@link ToolContext.waitForApproval}: the request and the human's decision. */
  approval?: { request: ApprovalRequest; decision: ApprovalDecision };
}

/** Everything that defines a tool. See {@link defineTool}. */
export interface ToolOptions<Schema extends z.ZodType, Output> {
  /** snake_case name the model calls, unique per agent. */
  name: string;
  /** One sentence: what the tool does. */
  summary: string;
  /** When the model should pick this tool. */
  whenToUse: string;
  /** When it should not (and what to do instead). */
  whenNotToUse?: string;
  /** The arguments, as a zod object schema. Messages of refinements are shown to the model on failure. */
  input: Schema;
  risk: ToolRisk;
  /**
   * The highest risk of what a call can lead to, when the tool hands work to another agent that
   * acts on it (default: `risk`). A delegation tool is `write` itself (it never waits for an
   * approval of its own), but one to a skill behind which a tool waits for a human approval leads
   * to `dangerous`, and the caller's card says so. Never lower than `risk`.
   */
  leadsTo?: ToolRisk;
  /** Milliseconds before one attempt is abandoned (default 10 000). */
  timeoutMs?: number;
  /** Whether running it twice with the same arguments is harmless (default: true for `read`, else false). */
  idempotent?: boolean;
  /** Extra attempts after a failure; only idempotent tools may have any (default 0). */
  retries?: number;
  /** What the model is told when the handler fails; the raw error only goes to the logs. */
  fallbackMessage?: string;
  /**
   * Required for `dangerous` tools: the approval request a human reads (may look data up, as
   * `context.principal` may see it: the caller reads the request too).
   */
  describeForApproval?: (
    input: z.output<Schema>,
    context: Pick<ToolContext, 'principal'>,
  ) => ApprovalText | Promise<ApprovalText>;
  /** Names of credentials the handler reads from `context.credentials`. */
  credentials?: readonly string[];
  /** Runs the tool. Receives validated arguments; returns JSON-serialisable data. */
  handler: (input: z.output<Schema>, context: ToolContext) => Promise<Output> | Output;
}

/** A tool ready to be registered with an agent. */
export interface Tool<Schema extends z.ZodType = z.ZodType, Output = unknown> {
  readonly name: string;
  readonly summary: string;
  readonly whenToUse: string;
  readonly whenNotToUse: string | undefined;
  readonly input: Schema;
  readonly risk: ToolRisk;
  /** The highest risk of what a call can lead to (see {@link ToolOptions.leadsTo}); absent: `risk`. */
  readonly leadsTo?: ToolRisk;
  readonly timeoutMs: number;
  readonly idempotent: boolean;
  readonly retries: number;
  readonly fallbackMessage: string;
  readonly describeForApproval:
    | ((
        input: z.output<Schema>,
        context: Pick<ToolContext, 'principal'>,
      ) => ApprovalText | Promise<ApprovalText>)
    | undefined;
  readonly credentials: readonly string[];
  readonly handler: (input: z.output<Schema>, context: ToolContext) => Promise<Output> | Output;
}

/** A tool of any argument and output type, as stored in a toolset. */
// biome-ignore lint/suspicious/noExplicitAny: handlers are contravariant in their input; the executor validates it.
export type AnyTool = Tool<z.ZodType, unknown> | Tool<any, any>;

const TOOL_NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

/**
 * Defines a tool. Checks the definition at once, so a mistake fails at startup, not mid-conversation.
 *
 * @example
 * const getOrder = defineTool({
 *   name: 'get_order',
 *   summary: 'Look up an order by its id: status, items, carrier.',
 *   whenToUse: 'The user asks about an order they placed.',
 *   whenNotToUse: 'The user asks about stock of a product; use check_stock.',
 *   input: z.object({ orderId: z.string().regex(/^A\d{5}$/, 'must be the letter A and 5 digits, e.g. A20417') }),
 *   risk: 'read',
 *   handler: ({ orderId }) => orders.get(orderId),
 * });
 */
export function defineTool<Schema extends z.ZodType, Output>({
  name,
  summary,
  whenToUse,
  whenNotToUse,
  input,
  risk,
  leadsTo = risk,
  timeoutMs = 10_000,
  idempotent = risk === 'read',
  retries = 0,
  fallbackMessage,
  describeForApproval,
  credentials = [],
  handler,
}: ToolOptions<Schema, Output>): Tool<Schema, Output> {
  const problems: string[] = [];
  if (!TOOL_NAME.test(name)) {
    problems.push(
      `name "${name}" must start with a letter and use only letters, digits, "_" or "-" (max 64)`,
    );
  }
  if (!summary?.trim()) problems.push('summary is empty: say in one sentence what the tool does');
  if (!whenToUse?.trim()) problems.push('whenToUse is empty: say when the model should pick this tool');
  if (!(input instanceof z.ZodObject))
    problems.push('input must be a zod object schema, e.g. z.object({ ... })');
  if (!TOOL_RISKS.includes(risk)) problems.push(`risk "${risk}" must be read, write or dangerous`);
  if (!TOOL_RISKS.includes(leadsTo)) problems.push(`leadsTo "${leadsTo}" must be read, write or dangerous`);
  else if (TOOL_RISKS.indexOf(leadsTo) < TOOL_RISKS.indexOf(risk))
    problems.push(`leadsTo "${leadsTo}" is lower than risk "${risk}": a call leads at least to what it does`);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    problems.push(`timeoutMs ${timeoutMs} must be a positive number`);
  if (!Number.isInteger(retries) || retries < 0)
    problems.push(`retries ${retries} must be a whole number >= 0`);
  if (retries > 0 && !idempotent) {
    problems.push(
      'retries > 0 on a non-idempotent tool: it would risk acting twice; set idempotent: true or retries: 0',
    );
  }
  if (risk === 'dangerous' && !describeForApproval) {
    problems.push(
      'a dangerous tool needs describeForApproval, so the approver reads what will happen in plain words',
    );
  }
  if (typeof handler !== 'function') problems.push('handler must be a function');
  if (problems.length > 0) {
    throw new AgentError('INVALID_TOOL_DEFINITION', {
      message: `Tool "${name}" is not valid: ${problems.join('; ')}.`,
      details: { tool: name, problems },
    });
  }
  return Object.freeze({
    name,
    summary,
    whenToUse,
    whenNotToUse,
    input,
    risk,
    leadsTo,
    timeoutMs,
    idempotent,
    retries,
    fallbackMessage: fallbackMessage ?? `The ${name} tool failed. Tell the user it is unavailable right now.`,
    describeForApproval,
    credentials,
    handler,
  });
}
