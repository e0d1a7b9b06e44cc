import type { z } from 'zod';

const MAX_SHOWN_INPUT = 40;

function showInput(input: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(input) ?? String(input);
  } catch {
    text = String(input);
  }
  return text.length > MAX_SHOWN_INPUT ? `${text.slice(0, MAX_SHOWN_INPUT - 1)}…` : text;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'the arguments';
  const input = 'input' in issue ? issue.input : undefined;
  const got = input === undefined ? '' : ` (got ${showInput(input)})`;
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) return `${field} is required (${issue.expected})`;
      return `${field} must be of type ${issue.expected}${got}`;
    case 'invalid_value':
      return `${field} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}${got}`;
    case 'too_small':
      return `${field} must be ${issue.inclusive === false ? 'more than' : 'at least'} ${String(issue.minimum)}${
        issue.origin === 'string' ? ' characters long' : ''
      }${got}`;
    case 'too_big':
      return `${field} must be ${issue.inclusive === false ? 'less than' : 'at most'} ${String(issue.maximum)}${
        issue.origin === 'string' ? ' characters long' : ''
      }${got}`;
    case 'unrecognized_keys':
      return `unknown ${issue.keys.length === 1 ? 'field' : 'fields'} ${issue.keys.join(', ')}: leave ${
        issue.keys.length === 1 ? 'it' : 'them'
      } out`;
    default:
      // Custom messages from the schema (regex, refine) are written for the reader: "must be ...".
      return /^(must|should|is|has|needs)\b/i.test(issue.message)
        ? `${field} ${issue.message}${got}`
        : `${field}: ${issue.message}${got}`;
  }
}

/**
 * Renders zod issues as one actionable sentence for a model or a user, e.g.
 * `orderId must be the letter A and 5 digits, e.g. A20417 (got "20417")`.
 * Parse with `{ reportInput: true }` so the offending values can be shown.
 */
export function formatArgumentIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map(describeIssue).join('; ');
}
