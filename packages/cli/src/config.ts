/** Settings of the `switchboard` command that come from the environment. */
export interface CliConfig {
  /** Where services write spans when no collector is configured (`SWITCHBOARD_SPAN_FILE`). */
  spanFile: string;
  /** Jaeger's query API / UI base URL, e.g. http://localhost:16686 (`SWITCHBOARD_JAEGER_URL`). */
  jaegerUrl: string | undefined;
}

/** Reads the command's settings from the environment, with the embedded defaults. */
export function loadCliConfig(env: NodeJS.ProcessEnv = process.env): CliConfig {
  return {
    spanFile: env.SWITCHBOARD_SPAN_FILE || '.switchboard/spans.jsonl',
    jaegerUrl: env.SWITCHBOARD_JAEGER_URL || undefined,
  };
}
