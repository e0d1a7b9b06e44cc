import { DEV_FILE, readDevFile } from '../dev-file.ts';
import { CliError } from '../errors.ts';

/** The variable that gives `switchboard eval --url` a token of each user the cases ask as. */
export const EVAL_TOKENS_VARIABLE = 'SWITCHBOARD_EVAL_TOKENS';

/** Users' tokens for a run against a deployment, and where they came from (for messages). */
export interface EvalTokens {
  /** User id → bearer token. */
  tokens: Record<string, string>;
  /** `SWITCHBOARD_EVAL_TOKENS` or `.switchboard/dev.json`; undefined when neither is there. */
  from: string | undefined;
}

/** Parses `traveller-1=tok1,traveller-2=tok2`; throws `CliError` `INVALID_SETTING` naming a malformed entry. */
export function parseEvalTokens(text: string): Record<string, string> {
  const tokens: Record<string, string> = {};
  for (const entry of text.split(',').map((item) => item.trim())) {
    if (entry === '') continue;
    const at = entry.indexOf('=');
    const id = entry.slice(0, Math.max(at, 0)).trim();
    const token = entry.slice(at + 1).trim();
    if (at <= 0 || id === '' || token === '') {
      throw new CliError('INVALID_SETTING', {
        message: `${EVAL_TOKENS_VARIABLE}: "${entry.length > 12 ? `${entry.slice(0, 12)}…` : entry}" must be <user id>=<token>; write every user the cases ask as, e.g. ${EVAL_TOKENS_VARIABLE}=traveller-1=<token>,traveller-2=<token>`,
      });
    }
    if (tokens[id] !== undefined) {
      throw new CliError('INVALID_SETTING', {
        message: `${EVAL_TOKENS_VARIABLE} gives user ${id} twice; give each user one token.`,
      });
    }
    tokens[id] = token;
  }
  return tokens;
}

/**
 * The users' tokens for `switchboard eval --url`: `SWITCHBOARD_EVAL_TOKENS` (`traveller-1=<token>,…`)
 * when it is set, else the users among the identities of `.switchboard/dev.json` (which
 * `switchboard dev` writes with every user of the team), else none. These are the users the
 * cases may name.
 */
export async function evalTokens({
  env,
  cwd = process.cwd(),
}: {
  env: NodeJS.ProcessEnv;
  cwd?: string;
}): Promise<EvalTokens> {
  const text = env[EVAL_TOKENS_VARIABLE]?.trim();
  if (text) return { tokens: parseEvalTokens(text), from: EVAL_TOKENS_VARIABLE };
  const file = await readDevFile({ cwd });
  if (!file) return { tokens: {}, from: undefined };
  const tokens: Record<string, string> = {};
  for (const [identity, token] of Object.entries(file.identities)) {
    if (identity.startsWith('user:')) tokens[identity.slice('user:'.length)] = token;
  }
  return { tokens, from: DEV_FILE };
}

/** The error for cases whose users have no token: what to set, with the users named. */
export function missingTokensError({
  missing,
  from,
}: {
  missing: readonly string[];
  from: string | undefined;
}): CliError {
  const whom = missing.length === 1 ? `user ${missing[0]}` : `users ${missing.join(', ')}`;
  const where = from
    ? `${from} has no token for ${missing.length === 1 ? 'them' : 'those'}`
    : `neither ${EVAL_TOKENS_VARIABLE} nor ${DEV_FILE} is there to give their tokens`;
  const example = missing
    .slice(0, 2)
    .map((id) => `${id}=<token>`)
    .join(',');
  return new CliError('MISSING_SETTING', {
    message: `The eval cases ask as ${whom}, and ${where}. Set ${EVAL_TOKENS_VARIABLE} to a token of every user the cases ask as, e.g. ${EVAL_TOKENS_VARIABLE}=${example}; against the local stack, "switchboard dev" writes every user's token to ${DEV_FILE}.`,
  });
}
