/** One wrong or missing environment variable, and how to fix it. */
export interface ConfigProblem {
  variable: string;
  message: string;
}

/**
 * A service's configuration is wrong: names every variable at fault. Thrown before the service
 * touches anything, so a bad setting never half-starts it.
 */
export class ConfigError extends Error {
  readonly code = 'INVALID_CONFIG';

  readonly service: string;
  readonly problems: readonly ConfigProblem[];

  constructor(service: string, problems: readonly ConfigProblem[]) {
    super(
      `The ${service} service cannot start; fix its environment:\n${problems
        .map((problem) => `  ${problem.variable}: ${problem.message}`)
        .join('\n')}`,
    );
    this.name = new.target.name;
    this.service = service;
    this.problems = problems;
  }
}
