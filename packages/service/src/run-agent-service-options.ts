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
   * that started this one with an IPC channel goes away (`exitWithParent`). Default true.
   */
  handleSignals?: boolean;
}

/** A running service. */
export interface RunningAgentService {
  /** The HTTP base URL it listens on. */
  readonly url: string;
  /** Drains and stops everything; resolves when done. Idempotent. */
  close(): Promise<void>;
}
