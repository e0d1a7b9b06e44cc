import type { Output } from '../io/output.ts';

/** The options of the commands that act on one of the supervisor's tasks (`tasks get`, `tasks cancel`). */
export interface TaskCommandOptions {
  taskId: string;
  /** Print the result as JSON. */
  json: boolean;
  /** The supervisor's URL (default: `SWITCHBOARD_URL`, else `.switchboard/dev.json`). */
  url?: string | undefined;
  /** The user's bearer token (default: `SWITCHBOARD_TOKEN`, else `.switchboard/dev.json`). */
  token?: string | undefined;
  /** `--as`: another caller of the local stack (`traveller-1`, `operator`), instead of `token`. */
  as?: string | undefined;
  /** The command's environment (`SWITCHBOARD_URL`, `SWITCHBOARD_TOKEN`). */
  env: NodeJS.ProcessEnv;
  output: Output;
}
