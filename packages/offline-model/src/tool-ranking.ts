import { DESCRIPTION_LABELS, type ToolDeclaration } from '@switchboard/agent';
import { contentTokens, type TermVector, TfIdfIndex, termCounts } from '@switchboard/agent/lexical';

/** A declared tool as the planner reads it back from its declaration. */
export interface ToolProfile {
  declaration: ToolDeclaration;
  name: string;
  summary: string;
  whenToUse: string;
  whenNotToUse: string | undefined;
  /** Stemmed words of the name, summary and "Use when" text. */
  use: TermVector;
  /** Stemmed words of the "Do not use when" text that its use texts lack (shared words tell nothing). */
  avoid: TermVector;
  /** Stemmed content words of the name (`cancel_order` → cancel, order; generic verbs like get dropped). */
  nameTerms: string[];
}

/** A tool's relevance to a request. */
export interface RankedTool {
  profile: ToolProfile;
  /** Similarity with the tool minus the penalty for its "Do not use when" text. */
  score: number;
  /** The request words that the tool's name, summary or "Use when" text contains. */
  matched: string[];
}

/** How much a match with "Do not use when" counts against a tool, relative to a match with its use. */
const AVOID_WEIGHT = 1;
/**
 * The share of a tool's similarity kept when the request uses none of its name's words; the rest is
 * earned word by word. A request about an order should not pick `cancel_order` over `get_order` only
 * because the shorter description says "order" more densely.
 */
const NAME_BASE = 0.7;

function nameFactor(nameTerms: readonly string[], query: TermVector): number {
  if (nameTerms.length === 0) return 1;
  const covered = nameTerms.filter((term) => query.has(term)).length / nameTerms.length;
  return NAME_BASE + (1 - NAME_BASE) * covered;
}

function section(lines: readonly string[], label: string): string | undefined {
  const line = lines.find((text) => text.startsWith(label));
  return line?.slice(label.length).trim();
}

/** Splits a tool description written by `describeTool` into summary, "Use when" and "Do not use when". */
export function profileTool(declaration: ToolDeclaration): ToolProfile {
  const { name, description } = declaration.function;
  // The name counts twice below: it is the most deliberate words a tool author writes.
  const lines = description.split('\n').map((line) => line.trim());
  const labelled = (line: string) =>
    line.startsWith(DESCRIPTION_LABELS.whenToUse) || line.startsWith(DESCRIPTION_LABELS.whenNotToUse);
  const summary = lines.filter((line) => line && !labelled(line)).join(' ');
  const whenToUse = section(lines, DESCRIPTION_LABELS.whenToUse) ?? '';
  const whenNotToUse = section(lines, DESCRIPTION_LABELS.whenNotToUse);
  const use = termCounts(contentTokens(`${name} ${name} ${summary} ${whenToUse}`));
  const avoid = termCounts(contentTokens(whenNotToUse ?? '').filter((term) => !use.has(term)));
  return {
    declaration,
    name,
    summary,
    whenToUse,
    whenNotToUse,
    use,
    avoid,
    nameTerms: [...new Set(contentTokens(name))],
  };
}

/** Ranks tools by relevance to a request, best first; ties keep declaration order. */
export function rankTools(profiles: readonly ToolProfile[], request: string): RankedTool[] {
  const documents = profiles.flatMap((profile) => [profile.use, profile.avoid]);
  const index = new TfIdfIndex(documents.filter((document) => document.size > 0));
  const query = termCounts(contentTokens(request));
  return profiles
    .map((profile) => ({
      profile,
      score:
        index.similarity(query, profile.use) * nameFactor(profile.nameTerms, query) -
        AVOID_WEIGHT * index.similarity(query, profile.avoid),
      matched: index.shared(query, profile.use),
    }))
    .sort((a, b) => b.score - a.score);
}
