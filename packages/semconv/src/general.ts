/**
 * Attributes from the OpenTelemetry general conventions that any span may carry: `error.*` and
 * `url.*`. Every name here is theirs.
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
