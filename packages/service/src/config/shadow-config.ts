import { readFileSync } from 'node:fs';
import type { ConfigProblem } from '@switchboard/config';
import { type ModelConfig, readModelConfig } from '@switchboard/config';

/**
 * An agent's shadow (see `@switchboard/shadow`): a candidate that gets a copy of a share of the
 * agent's new requests in the background and never answers. Off unless its variables are set.
 */
export interface ShadowConfig {
  /** What the shadow runs, as reports name it (`<AGENT>_SHADOW_CANDIDATE`, e.g. `prompt-v2`). */
  candidate: string;
  /** The share of new requests copied, 0 to 1 (`<AGENT>_SHADOW_SHARE`: `0.25` or `25%`). */
  share: number;
  /**
   * The candidate's model (`<AGENT>_SHADOW_MODEL`, with `<AGENT>_SHADOW_OPENAI_API_KEY` and
   * `<AGENT>_SHADOW_OPENAI_BASE_URL`, else the global ones); undefined: the live agent's model.
   */
  model: ModelConfig | undefined;
  /** The candidate's system prompt (`<AGENT>_SHADOW_INSTRUCTIONS_FILE`); undefined: the live one. */
  instructions: string | undefined;
  /** How long pair records are kept (`<AGENT>_SHADOW_RETENTION_DAYS`, default 7). */
  retentionDays: number;
  /** Copies the shadow runs at once in this process (`<AGENT>_SHADOW_CONCURRENCY`, default 2). */
  concurrency: number;
  /**
   * How busy the service's event loop may be, 0 to 1, for the shadow to start a copy
   * (`<AGENT>_SHADOW_YIELD_ABOVE`, default 0.7; 1: never wait): above it the shadow waits, so the
   * live requests keep the process.
   */
  yieldAbove: number;
}

const SETTINGS = [
  'CANDIDATE',
  'SHARE',
  'MODEL',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'INSTRUCTIONS_FILE',
  'RETENTION_DAYS',
  'CONCURRENCY',
  'YIELD_ABOVE',
] as const;

/**
 * Reads an agent's shadow settings: none set is no shadow (`config` undefined); any set means all
 * that are needed must be right, and a variable under the agent's `_SHADOW_` prefix that is not a
 * setting is refused (a typo must not leave a shadow silently off).
 */
export function readShadowConfig(
  env: NodeJS.ProcessEnv,
  agent: string,
): { ok: true; config: ShadowConfig | undefined } | { ok: false; problems: ConfigProblem[] } {
  const prefix = `${agent.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_SHADOW_`;
  const name = (setting: (typeof SETTINGS)[number]) => `${prefix}${setting}`;
  const value = (setting: (typeof SETTINGS)[number]) => env[name(setting)]?.trim() || undefined;
  const problems: ConfigProblem[] = [];
  const set = Object.keys(env).filter((key) => key.startsWith(prefix) && env[key]?.trim());
  for (const key of set) {
    if (!(SETTINGS as readonly string[]).includes(key.slice(prefix.length))) {
      problems.push({
        variable: key,
        message: `is not a shadow setting; the settings are ${SETTINGS.map(name).join(', ')}`,
      });
    }
  }
  if (set.length === 0) return { ok: true, config: undefined };

  const candidate = value('CANDIDATE');
  if (!candidate || !/^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/.test(candidate)) {
    problems.push({
      variable: name('CANDIDATE'),
      message: candidate
        ? `must be a short label of letters, digits, ".", "_", ":" or "-" (up to 64), not "${candidate}"`
        : 'is required when any shadow setting is set: name what the shadow runs, e.g. "prompt-v2" or "gpt-5-mini"',
    });
  }
  const share = parseShare(value('SHARE'));
  if (share === undefined) {
    problems.push({
      variable: name('SHARE'),
      message: value('SHARE')
        ? `must be a share from 0 to 1 or a percentage, e.g. 1 (every request), 0.1 or 10%, not "${value('SHARE')}"`
        : 'is required when a shadow is configured: the share of new requests it gets, e.g. 1 (all) or 10%',
    });
  }
  const model = value('MODEL') ? readModelConfig(env, `${agent}_SHADOW`) : undefined;
  if (model && 'problems' in model) problems.push(...model.problems);
  let instructions: string | undefined;
  const file = value('INSTRUCTIONS_FILE');
  if (file) {
    try {
      instructions = readFileSync(file, 'utf8');
      if (!instructions.trim()) throw new Error('the file is empty');
    } catch (error) {
      problems.push({
        variable: name('INSTRUCTIONS_FILE'),
        message: `must name a readable file with the candidate's system prompt; "${file}" could not be used (${error instanceof Error ? error.message : String(error)})`,
      });
    }
  }
  const retentionDays = wholeNumber(value('RETENTION_DAYS'), 7, 1, 365);
  if (retentionDays === undefined) {
    problems.push({
      variable: name('RETENTION_DAYS'),
      message: 'must be a whole number of days from 1 to 365',
    });
  }
  const concurrency = wholeNumber(value('CONCURRENCY'), 2, 1, 64);
  if (concurrency === undefined) {
    problems.push({ variable: name('CONCURRENCY'), message: 'must be a whole number from 1 to 64' });
  }
  const yieldText = value('YIELD_ABOVE');
  const yieldAbove = yieldText === undefined ? 0.7 : Number(yieldText);
  if (!(yieldAbove > 0 && yieldAbove <= 1)) {
    problems.push({
      variable: name('YIELD_ABOVE'),
      message: `must be a share above 0 and at most 1 (how busy the service may be for the shadow to run a copy, e.g. 0.7; 1 never waits), not "${yieldText}"`,
    });
  }
  if (
    problems.length > 0 ||
    !candidate ||
    share === undefined ||
    retentionDays === undefined ||
    concurrency === undefined
  ) {
    return { ok: false, problems };
  }
  return {
    ok: true,
    config: {
      candidate,
      share,
      model: model && 'config' in model ? model.config : undefined,
      instructions,
      retentionDays,
      concurrency,
      yieldAbove,
    },
  };
}

function parseShare(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const percent = text.endsWith('%');
  const number = Number(percent ? text.slice(0, -1) : text);
  const share = percent ? number / 100 : number;
  return Number.isFinite(share) && share >= 0 && share <= 1 && text.trim() !== '%' ? share : undefined;
}

function wholeNumber(
  text: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number | undefined {
  if (text === undefined) return fallback;
  const number = Number(text);
  return Number.isInteger(number) && number >= min && number <= max ? number : undefined;
}
