import type { z } from 'zod';

/** A JSON path as case errors show it: `expect.tools.calls[0].tool`, `turns[1]`. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(the file)';
}

/**
 * One line per zod issue, each starting with its JSON path: `expect.tools.match must be subset,
 * exact or in-order`, `turns is required`, `expect has an unknown key "tool" (allowed: tools, ...)`.
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const path = jsonPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((key) => `"${key}"`).join(', ');
      return `${path} has ${issue.keys.length === 1 ? 'an unknown key' : 'unknown keys'} ${keys}`;
    }
    if (issue.code === 'invalid_type' && issue.input === undefined) return `${path} is required`;
    return `${path} ${issue.message}`;
  });
}
