import type { AuditSink, ChatModel, Logger } from '@switchboard/agent';
import type { Telemetry } from '@switchboard/telemetry';
import type { ServiceConfig } from './config/service-config.ts';
import type { AgentSetup, ServiceContext } from './service-setup.ts';

/** Options of {@link runAgentService}. */
export interface RunAgentServiceOptions {
  config: ServiceConfig;
  /** The service's version, published in its card and its traces (default `0.1.0`). */
  version?: string;
  /** Builds the agent once Redis, the model and the registry are ready. */
  setup: (context: ServiceContext) => Promise<AgentSetup> | AgentSetup;
  /**
   * Keep an approval board of this service's tasks and serve the operators' `/admin` API (the
   * public supervisor does). Default false.
   */
  approvalsBoard?: boolean;
  /**
   * Handle SIGTERM and SIGINT with a drain and exit, and drain and exit the same way when the process
   * that started this one with an IPC channel goes away (`exitWithParent`); and, owning the process,
   * route its `console` to the logger (`routeConsole`), so it writes JSON lines only. Default true.
   */
  handleSignals?: boolean;
  /**
   * For several services in one process (a team run in process on Redis): the process's telemetry,
   * started once by the caller, instead of an OpenTelemetry SDK per service (default: one started
   * for this service from `config`). The service's close shuts down what it is given.
   */
  telemetry?: Telemetry;
  /** The service's logger (default: JSON lines on stdout at `config.logLevel`). */
  logger?: Logger;
  /** The agent's model (default: the one `config.model` names). */
  model?: ChatModel;
  /** Where the agent's audit records go (default: the service's log). */
  audit?: AuditSink;
}

/** A running service. */
export interface RunningAgentService {
  /** The HTTP base URL it listens on. */
  readonly url: string;
  /** Drains and stops everything; resolves when done. Idempotent. */
  close(): Promise<void>;
}
