import { randomUUID } from 'node:crypto';
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { COMMON, cliSpanName, ERROR_TYPE_OTHER, PROCESS } from '@switchboard/semconv';
import { startTelemetry } from '@switchboard/telemetry';
import packageJson from '../../package.json' with { type: 'json' };
import { CliError } from '../errors.ts';

/** The `service.name` of the spans the command exports. */
export const CLI_SERVICE_NAME = 'switchboard-cli';

/** The instrumentation scope of the command's own spans. */
const CLI_TRACER_NAME = '@switchboard/cli';
/** Longest the command waits at its end for its spans to be exported, retries included. */
const EXPORT_TIMEOUT_MS = 3_000;

/** Options of {@link startCommandTracing}. */
export interface CommandTracingOptions {
  /** The collector's OTLP/HTTP base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`). */
  otlpEndpoint: string;
  /** `deployment.environment.name`. */
  environment: string;
  /** Told, in a line we wrote, when the spans could not be exported; the command's outcome stands. */
  warn: (line: string) => void;
}

/** A started SDK that traces one command. */
export interface CommandTracing {
  /**
   * Runs the command under its root span, active while it runs; `fn` names the span once the command
   * is known (`ask`, `tasks get`). Records the exit code, ends the span, then flushes and stops the
   * SDK, so that everything is exported before the process exits.
   */
  run(fn: (nameCommand: (command: string) => void) => Promise<number>): Promise<number>;
}

/**
 * Starts an OpenTelemetry SDK exporting to `otlpEndpoint` for one command. Its requests carry the
 * active span (the command's, or an A2A call's CLIENT span) as their parent, so that a request is
 * one tree in the collector, rooted at the user's command. Only loaded when the endpoint is set.
 * Throws `CliError` `INVALID_SETTING` when the endpoint is not an http(s) URL.
 */
export async function startCommandTracing({
  otlpEndpoint,
  environment,
  warn,
}: CommandTracingOptions): Promise<CommandTracing> {
  if (!/^https?:\/\/\S+$/i.test(otlpEndpoint)) {
    throw new CliError('INVALID_SETTING', {
      message: `OTEL_EXPORTER_OTLP_ENDPOINT is "${otlpEndpoint}", not an http(s) URL: set it to your collector's OTLP/HTTP base URL, e.g. http://localhost:4318, or unset it.`,
    });
  }
  const telemetry = await startTelemetry({
    serviceName: CLI_SERVICE_NAME,
    serviceVersion: packageJson.version,
    environment,
    instanceId: randomUUID(),
    otlpEndpoint,
    // An unreachable collector delays the exit by this much at most (the exporter's default is 10 s).
    exportTimeoutMs: EXPORT_TIMEOUT_MS,
    // The A2A calls have CLIENT spans of their own, and the requests carry them by hand.
    instrumentHttp: false,
  });
  const tracer = trace.getTracer(CLI_TRACER_NAME, packageJson.version);
  return {
    run: async (fn) => {
      const span = tracer.startSpan(
        cliSpanName({ command: '' }),
        {
          kind: SpanKind.INTERNAL,
          attributes: { [PROCESS.executableName]: 'switchboard', [PROCESS.pid]: process.pid },
        },
        ROOT_CONTEXT,
      );
      try {
        const code = await context.with(trace.setSpan(ROOT_CONTEXT, span), () =>
          fn((command) => span.updateName(cliSpanName({ command }))),
        );
        span.setAttribute(PROCESS.exitCode, code);
        if (code !== 0) {
          span.setAttribute(COMMON.errorType, String(code));
          span.setStatus({ code: SpanStatusCode.ERROR, message: `The command exited with ${code}.` });
        }
        return code;
      } catch (error) {
        span.setAttribute(COMMON.errorType, ERROR_TYPE_OTHER);
        span.setStatus({ code: SpanStatusCode.ERROR, message: 'The command failed unexpectedly.' });
        throw error;
      } finally {
        span.end();
        await telemetry.shutdown().catch(() => {
          warn(
            `switchboard: the command's spans could not be exported to ${otlpEndpoint} (OTEL_EXPORTER_OTLP_ENDPOINT).`,
          );
        });
      }
    },
  };
}
