import type { ToolErrorCode } from '../tool-result.ts';

/** Why a call did not run or did not succeed, in the words the model reads. */
export interface Refusal {
  code: ToolErrorCode;
  message: string;
  /** What the model should do next. */
  hint?: string | undefined;
}
