/** Every error code of `@switchboard/eval`, with its default message and who must act. */
export const EVAL_ERRORS = {
  INVALID_OPTIONS: { party: 'caller', message: 'The options are not valid.' },
  INVALID_CASES: { party: 'caller', message: 'Some eval case files are not valid.' },
  CASES_NOT_FOUND: { party: 'caller', message: 'No eval cases were found.' },
  UNKNOWN_SUITE: { party: 'caller', message: 'There is no such suite.' },
  INVALID_REPORT: { party: 'caller', message: 'The report file is not a valid eval report.' },
  MODEL_UNAVAILABLE: { party: 'dependency', message: 'The model could not be set up.' },
} as const satisfies Record<string, { party: 'caller' | 'dependency' | 'bug'; message: string }>;

/** A code from {@link EVAL_ERRORS}. */
export type EvalErrorCode = keyof typeof EVAL_ERRORS;

/**
 * The one error class of `@switchboard/eval`. Its message says what was wrong and how to fix it,
 * e.g. `evals/normal/foo.yaml: expect.tools.match must be subset, exact or in-order`.
 */
export class EvaluationError extends Error {
  readonly code: EvalErrorCode;
  /** The individual problems, one line each, when there are several (e.g. one per bad case file). */
  readonly problems: readonly string[];

  constructor(
    code: EvalErrorCode,
    {
      message,
      problems = [],
      cause,
    }: { message?: string; problems?: readonly string[]; cause?: unknown } = {},
  ) {
    super(message ?? EVAL_ERRORS[code].message, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
    this.problems = problems;
  }
}

/** Whether `error` is an {@link EvaluationError}, optionally with this code. */
export function isEvaluationError(error: unknown, code?: EvalErrorCode): error is EvaluationError {
  return error instanceof EvaluationError && (code === undefined || error.code === code);
}
