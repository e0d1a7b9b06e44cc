import type { ToolCall } from '../../model/messages.ts';
import { formatArgumentIssues } from '../argument-errors.ts';
import type { AnyTool } from '../define-tool.ts';
import type { Refusal } from './refusal.ts';

/**
 * The call checked against the agent's tools: `arguments` is the parsed JSON whenever it parsed
 * (kept for the trajectory even when the schema refuses it), `input` the validated arguments.
 */
export type CallCheck =
  | { ok: true; tool: AnyTool; arguments: unknown; input: unknown }
  | { ok: false; refusal: Refusal; arguments?: unknown };

/** Checks that the tool exists, that this agent may use it, and that its arguments are valid. */
export function checkCall({
  call,
  tool,
  permitted,
  agent,
}: {
  call: ToolCall;
  tool: AnyTool | undefined;
  permitted: ReadonlySet<string>;
  agent: string;
}): CallCheck {
  const name = call.function.name;
  const choices = `Use one of: ${[...permitted].join(', ') || '(none)'}.`;
  if (!tool) {
    return {
      ok: false,
      refusal: { code: 'UNKNOWN_TOOL', message: `There is no tool named "${name}".`, hint: choices },
    };
  }
  if (!permitted.has(name)) {
    return {
      ok: false,
      refusal: {
        code: 'PERMISSION_DENIED',
        message: `The ${agent} agent is not permitted to use ${name}.`,
        hint: choices,
      },
    };
  }

  let raw: unknown;
  try {
    raw = call.function.arguments.trim() === '' ? {} : JSON.parse(call.function.arguments);
  } catch (error) {
    const why = error instanceof SyntaxError ? ` (${error.message})` : '';
    return {
      ok: false,
      refusal: {
        code: 'INVALID_JSON',
        message: `The arguments for ${name} are not valid JSON${why}.`,
        hint: `Send the arguments as one JSON object with the fields of ${name}'s parameters.`,
      },
    };
  }
  const parsed = tool.input.safeParse(raw, { reportInput: true });
  if (!parsed.success) {
    return {
      ok: false,
      arguments: raw,
      refusal: {
        code: 'INVALID_ARGUMENTS',
        message: `Invalid arguments for ${name}: ${formatArgumentIssues(parsed.error.issues)}.`,
        hint: `Fix the arguments and call ${name} again, or ask the user for the missing information.`,
      },
    };
  }
  return { ok: true, tool, arguments: raw, input: parsed.data };
}
