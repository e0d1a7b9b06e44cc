/**
 * Attributes from the OpenTelemetry general conventions that any span may carry: `error.*`,
 * `url.*` and `server.*`. Every name here is theirs.
 */
export const COMMON = {
  /**
   * What went wrong, as a low-cardinality code (`TOOL_FAILED`, an A2A error's name, ...), never a
   * raw message; {@link ERROR_TYPE_OTHER} when nothing better is known.
   */
  errorType: 'error.type',
  /** An HTTP client span's URL, with its secrets redacted. */
  urlFull: 'url.full',
  /** An HTTP client span's query string, with its secrets redacted. */
  urlQuery: 'url.query',
  /** On an A2A CLIENT span: the host of the agent's interface URL. */
  serverAddress: 'server.address',
  /** On an A2A CLIENT span: the port of the agent's interface URL. */
  serverPort: 'server.port',
} as const;

/** The conventions' `error.type` value for an error nothing more specific can be said of. */
export const ERROR_TYPE_OTHER = '_OTHER';

/** Resource attributes every Switchboard process reports, from the service and deployment conventions. */
export const RESOURCE = {
  serviceName: 'service.name',
  serviceVersion: 'service.version',
  /** Unique per process: a pod's name, or a UUID. */
  serviceInstanceId: 'service.instance.id',
  deploymentEnvironmentName: 'deployment.environment.name',
} as const;

/**
 * `process.*` attributes of the root span of a `switchboard` command, from the conventions for CLI
 * programs (status "Development"). Every name here is theirs.
 */
export const PROCESS = {
  /** `switchboard`. */
  executableName: 'process.executable.name',
  /** The command's exit code; not 0 makes the span an error, as the conventions say. */
  exitCode: 'process.exit.code',
  pid: 'process.pid',
} as const;
