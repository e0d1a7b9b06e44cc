import { isUserText, type ToolErrorCode } from '@switchboard/agent';
import { splitIdentifier } from '@switchboard/agent/lexical';
import type { ToolStep } from './conversation.ts';
import { describeForm, type PropertyView } from './schema-view.ts';
import type { ToolProfile } from './tool-ranking.ts';

const MAX_FIELDS = 10;
const MAX_ITEMS = 5;
const MAX_TEXT = 200;

/** `trackingNumber` or `tracking_number` → `tracking number`. */
export function humanKey(key: string): string {
  return splitIdentifier(key).toLowerCase().trim();
}

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}

/** Renders a JSON value as short readable text: `status: shipped, items: (sku: SKU-1234, quantity: 2)`. */
export function renderValue(value: unknown, depth = 0): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return clip(value);
  // A person's text is shown as they wrote it, never read for what to do (see `userText`).
  if (isUserText(value)) return clip(value.userText);
  if (depth >= 4) return '…';
  const nested = (text: string) => (depth > 0 ? `(${text})` : text);
  if (Array.isArray(value)) {
    if (value.length === 0) return 'none';
    const shown = value.slice(0, MAX_ITEMS).map((item) => renderValue(item, depth + 1));
    const rest = value.length - shown.length;
    return rest > 0 ? `${shown.join('; ')} and ${rest} more` : shown.join('; ');
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return 'none';
  const shown = entries
    .slice(0, MAX_FIELDS)
    .map(([key, item]) => `${humanKey(key)}: ${renderValue(item, depth + 1)}`);
  const rest = entries.length - shown.length;
  return nested(rest > 0 ? `${shown.join(', ')} and ${rest} more fields` : shown.join(', '));
}

/** `get_order (order id: A20417)`: the tool and its scalar arguments. */
export function describeCall(step: Pick<ToolStep, 'name' | 'arguments'>): string {
  const args = Object.entries(step.arguments ?? {})
    .filter(([, value]) => value === null || typeof value !== 'object')
    .map(([key, value]) => `${humanKey(key)}: ${renderValue(value)}`);
  return args.length > 0 ? `${step.name} (${args.join(', ')})` : step.name;
}

/** Leaves out the fields of a result that only repeat the call's arguments (`order id: A20417` twice). */
function withoutEchoes(data: unknown, args: Record<string, unknown> | undefined): unknown {
  if (!args || typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  const entries = Object.entries(data).filter(([key, value]) => args[key] !== value);
  return entries.length > 0 ? Object.fromEntries(entries) : data;
}

const FAILURE_WORDS: Readonly<Partial<Record<ToolErrorCode, string>>> = {
  APPROVAL_REQUIRED: 'did not run yet, it needs approval',
  APPROVAL_DENIED: 'did not run, approval was denied',
  PERMISSION_DENIED: 'did not run, it is not permitted',
  INVALID_ARGUMENTS: 'failed, its arguments were rejected',
  CANCELED: 'was canceled',
  DUPLICATE_SUPPRESSED: 'was not run again',
};

function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

/**
 * A result that carries another agent's answer (`{ agent, status, answer }`, as delegation tools
 * return) is shown whole: that text was written for the user.
 */
function delegateAnswer(data: unknown): string | undefined {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const { agent, status, answer } = data as Record<string, unknown>;
  if (typeof answer !== 'string' || !answer.trim()) return undefined;
  const who = typeof agent === 'string' && agent ? `The ${agent} agent` : 'The agent';
  const state = typeof status === 'string' && status !== 'completed' ? ` (${humanKey(status)})` : '';
  return `${who} answered${state}:\n${answer
    .trim()
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n')}`;
}

/** One line about one step: its data, or that it failed and the runtime's message why. */
export function describeStep(step: ToolStep): string {
  const call = describeCall(step);
  const { result } = step;
  const delegated = result?.ok ? delegateAnswer(result.data) : undefined;
  if (delegated) return delegated;
  if (result?.ok) return sentence(`${call} → ${renderValue(withoutEchoes(result.data, step.arguments))}`);
  if (result) {
    const failed = FAILURE_WORDS[result.error.code] ?? 'failed';
    const retry =
      result.error.code === 'INVALID_ARGUMENTS' ? ' I did not retry it with the same arguments.' : '';
    return `${call} ${failed}: ${sentence(result.error.message)}${retry}`;
  }
  if (step.content !== undefined) return sentence(`${call} returned: ${clip(step.content)}`);
  return `${call} returned no result.`;
}

/** The final answer: one line per step of this request, in order, then any notes. */
export function composeAnswer(steps: readonly ToolStep[], notes: readonly string[] = []): string {
  const lines = steps.map(describeStep);
  if (lines.length === 1 && notes.length === 0) return lines[0] ?? '';
  const body =
    lines.length > 0 ? ['Here is what the tools returned:', ...lines.map((line) => `- ${line}`)] : [];
  return [...body, ...notes].join('\n');
}

function describeProperty(property: PropertyView): string {
  const label = humanKey(property.name);
  // "The order id: the letter A and 5 digits" says the label twice; keep what follows it.
  const description = property.description
    ?.trim()
    .replace(/\.$/, '')
    .replace(/^the ([a-z ]+?)\s*[:,-]\s*/i, (whole, named: string) =>
      named.toLowerCase() === label ? '' : whole,
    );
  // A pattern is for machines: when the description says the form in words, it is enough.
  const form = description && property.pattern ? '' : describeForm(property);
  const detail = [description, form].filter(Boolean).join('; ');
  return detail ? `the ${label} (${detail})` : `the ${label}`;
}

function listing(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/**
 * Says which required arguments a tool lacks and in which form, e.g. "I can't run get_order yet: it
 * needs the order id (the letter A and 5 digits, e.g. A20417), which I could not find in your request
 * in that form. Please include it."
 */
export function missingArgumentsAnswer(tool: string, missing: readonly PropertyView[]): string {
  const one = missing.length === 1;
  return (
    `I can't run ${tool} yet: it needs ${listing(missing.map(describeProperty))}, ` +
    `which I could not find in your request in that form. Please include ${one ? 'it' : 'them'}.`
  );
}

/** Says plainly that the request matches no tool, and lists what the tools can do. */
export function cannotHandleAnswer(profiles: readonly ToolProfile[], reason: string): string {
  if (profiles.length === 0) {
    return `This offline planner cannot handle that request: ${reason} It only answers by calling tools, and none are available.`;
  }
  const abilities = profiles.map((profile) => `- ${profile.name}: ${profile.summary}`);
  return [`This offline planner cannot handle that request: ${reason} It can:`, ...abilities].join('\n');
}
