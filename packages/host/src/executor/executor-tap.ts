import type { AgentExecutor } from '@a2a-js/sdk/server';

/**
 * The port a host offers to what runs beside its agent: it gets the executor once, when the host is
 * composed, and returns the one the request handler uses (the same calls, watched). Shadow mode's
 * `ShadowTap` (`@switchboard/shadow`) is one; the host knows no implementation.
 */
export interface ExecutorTap {
  wrap(executor: AgentExecutor): AgentExecutor;
}
