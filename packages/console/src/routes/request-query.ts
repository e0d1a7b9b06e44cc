import type { Request } from 'express';
import { REQUEST_STATES, type RequestFilters } from '../pages/requests-page.ts';

/** The requests list's query, read: the filters as typed (for the form), the times they name, and what was wrong. */
export interface RequestQuery {
  filters: RequestFilters;
  /** Only tasks whose state changed at or after this time (ms), from `from`. */
  after?: number;
  /** Only tasks whose state changed before this time (ms), from `to` or the `before` of an "Older" link. */
  before?: number;
  /** What the operator should fix, each in a sentence; the list is not read while there are any. */
  problems: string[];
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, 200) : '');

/** `2026-12-04T19:00`, with seconds, fractions and a zone allowed; no zone means UTC (the times the list shows). */
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/;

function timeOf(name: string, value: string, problems: string[]): number | undefined {
  if (value === '') return undefined;
  const ms = TIME.test(value)
    ? Date.parse(/(Z|[+-]\d{2}:\d{2})$/.test(value) ? value : `${value}Z`)
    : Number.NaN;
  if (Number.isNaN(ms)) {
    problems.push(`“${name}” is not a time: write it as 2026-12-04T19:00 (UTC), or pick one in the field.`);
    return undefined;
  }
  return ms;
}

/**
 * Reads `user`, `state`, `from`, `to` and `before` (ms, the "Older" link's) from the list's query.
 * Nothing is guessed: a state the protocol does not have, or a time that does not parse, is a problem
 * to show, not a filter dropped.
 */
export function readRequestQuery(query: Request['query']): RequestQuery {
  const problems: string[] = [];
  const user = text(query.user);
  const state = text(query.state);
  const from = text(query.from);
  const to = text(query.to);
  if (state !== '' && !REQUEST_STATES.includes(state)) {
    problems.push(`There is no state “${state}”: pick one of ${REQUEST_STATES.join(', ')}.`);
  }
  const after = timeOf('From', from, problems);
  let before = timeOf('To', to, problems);
  const page = text(query.before);
  if (page !== '') {
    const ms = /^\d{1,15}$/.test(page) ? Number(page) : Number.NaN;
    if (Number.isNaN(ms)) problems.push('The page asked for is not a time; go back to the first page.');
    else before = before === undefined ? ms : Math.min(before, ms);
  }
  if (after !== undefined && before !== undefined && after >= before) {
    problems.push('“From” is not before “To”: swap them, or clear one.');
  }
  const filters: RequestFilters = {
    ...(user ? { user } : {}),
    ...(state ? { state } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
  return {
    filters,
    ...(after === undefined ? {} : { after }),
    ...(before === undefined ? {} : { before }),
    problems,
  };
}
