import type { ChatRequest } from '@switchboard/agent';
import { cannotHandleAnswer, composeAnswer, missingArgumentsAnswer } from './compose-answer.ts';
import { callKey, knownValues, type RequestView, readConversation } from './conversation.ts';
import { type FillResult, fillArguments, type KnownValues } from './fill-arguments.ts';
import { readObjectSchema } from './schema-view.ts';
import { splitClauses } from './text-extract.ts';
import { profileTool, type RankedTool, rankTools, type ToolProfile } from './tool-ranking.ts';
import { writeIntent } from './write-intent.ts';

/** How the planner decides; see `OfflineModelOptions` for the meaning and defaults. */
export interface PlannerSettings {
  minScore: number;
  maxToolCalls: number;
  now: Date;
}

/** One tool call the planner wants to make. */
export interface PlannedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** What the planner does next: call tools, or answer with a text (plain or JSON). */
export type Decision = { kind: 'calls'; calls: PlannedCall[] } | { kind: 'answer'; text: string };

interface Candidate {
  ranked: RankedTool;
  fill: FillResult;
}

const answer = (text: string): Decision => ({ kind: 'answer', text });

function isFillable(candidate: Candidate): boolean {
  return candidate.fill.missing.length === 0;
}

function relevantTools(
  request: ChatRequest,
  ranked: readonly RankedTool[],
  view: RequestView,
  minScore: number,
) {
  const choice = request.toolChoice ?? 'auto';
  // A tool named by the caller is the caller's decision, not the planner's.
  if (typeof choice === 'object') return ranked.filter((tool) => tool.profile.name === choice.function.name);
  const asked = writeIntent(
    ranked.map((tool) => tool.profile),
    view.request ?? '',
  );
  const allowed = ranked.filter((tool) => asked(tool.profile));
  if (choice === 'required' && view.steps.length === 0) return allowed;
  return allowed.filter((tool) => tool.score > 0 && tool.score >= minScore);
}

/**
 * The tools that own a clause of the request: the best tool for that clause alone, above the
 * threshold, with a required argument (if it has any) found in that clause. This is the evidence of a
 * separate intent that justifies a second tool call for one request.
 */
function clauseOwners(
  profiles: readonly ToolProfile[],
  text: string,
  settings: PlannerSettings,
): Set<string> {
  const owners = new Set<string>();
  const clauses = splitClauses(text);
  if (clauses.length < 2) return owners;
  for (const clause of clauses) {
    const [top] = rankTools(profiles, clause);
    if (!top || top.score <= 0 || top.score < settings.minScore) continue;
    const parameters = top.profile.declaration.function.parameters;
    const { required } = readObjectSchema(parameters);
    const { values } = fillArguments(parameters, { text: clause, now: settings.now });
    if (required.size === 0 || Object.keys(values).some((name) => required.has(name)))
      owners.add(top.profile.name);
  }
  return owners;
}

function toCalls(chosen: readonly Candidate[]): Decision {
  return {
    kind: 'calls',
    calls: chosen.map(({ ranked, fill }) => ({ name: ranked.profile.name, arguments: fill.values })),
  };
}

function planTools(
  request: ChatRequest,
  view: RequestView,
  profiles: ToolProfile[],
  settings: PlannerSettings,
) {
  const text = view.request ?? '';
  const known: KnownValues = knownValues(view.steps);
  const ranked = relevantTools(request, rankTools(profiles, text), view, settings.minScore);
  const candidates: Candidate[] = ranked.map((tool) => ({
    ranked: tool,
    fill: fillArguments(tool.profile.declaration.function.parameters, { text, known, now: settings.now }),
  }));
  const budget = settings.maxToolCalls - view.steps.length;
  const limit = request.parallelToolCalls === false ? Math.min(1, budget) : budget;
  const owners = clauseOwners(profiles, text, settings);
  const best = candidates[0];
  if (view.steps.length === 0) {
    if (!best) return cannotHandleAnswer(profiles, 'it does not match any of its tools closely enough.');
    if (!isFillable(best)) return missingArgumentsAnswer(best.ranked.profile.name, best.fill.missing);
    const extras = candidates.filter((c) => c !== best && isFillable(c) && owners.has(c.ranked.profile.name));
    return toCalls([best, ...extras].slice(0, limit));
  }
  const calledKeys = new Set(
    view.steps.map((step) => callKey(step.name, step.arguments, step.argumentsText)),
  );
  const rejected = new Set(
    view.steps
      .filter((step) => step.result?.ok === false && step.result.error.code === 'INVALID_ARGUMENTS')
      .map((step) => step.name),
  );
  const called = new Set(view.steps.map((step) => step.name));
  const required = (c: Candidate) =>
    readObjectSchema(c.ranked.profile.declaration.function.parameters).required;
  const next = candidates.filter((c) => {
    const name = c.ranked.profile.name;
    const usesResults = [...c.fill.fromKnown].some((property) => required(c).has(property));
    return (
      isFillable(c) &&
      !calledKeys.has(callKey(name, c.fill.values)) &&
      (!called.has(name) || rejected.has(name)) &&
      (usesResults || owners.has(name))
    );
  });
  if (limit > 0 && next.length > 0) return toCalls(next.slice(0, limit));
  const unmet = best && !isFillable(best) && !called.has(best.ranked.profile.name) ? best : undefined;
  const notes = unmet ? [missingArgumentsAnswer(unmet.ranked.profile.name, unmet.fill.missing)] : [];
  return composeAnswer(view.steps, notes);
}

/**
 * Decides the next assistant message from a request alone, as a model would: a structured answer
 * when a JSON response format is asked for, tool calls while relevant tools can be filled, and
 * otherwise a plain answer from the tool results (or saying what is missing or out of reach).
 */
export function decide(request: ChatRequest, settings: PlannerSettings): Decision {
  const view = readConversation(request.messages);
  if (view.request === undefined)
    return answer('There is no user message for this offline planner to answer.');
  const format = request.responseFormat;
  if (format?.type === 'json_schema') {
    const source = { text: view.request, known: knownValues(view.steps), now: settings.now };
    return answer(JSON.stringify(fillArguments(format.json_schema.schema, source).values));
  }
  if (format?.type === 'json_object') return answer(JSON.stringify({ text: view.request }));
  const profiles = (request.tools ?? []).map(profileTool);
  if (view.steps.length === 0 && profiles.length === 0)
    return answer(cannotHandleAnswer([], 'no tools are declared.'));
  if (request.toolChoice === 'none' || profiles.length === 0) {
    if (view.steps.length > 0) return answer(composeAnswer(view.steps));
    return answer(
      cannotHandleAnswer(profiles, 'it was asked to answer without tools and can only report tool results.'),
    );
  }
  const planned = planTools(request, view, profiles, settings);
  return typeof planned === 'string' ? answer(planned) : planned;
}
