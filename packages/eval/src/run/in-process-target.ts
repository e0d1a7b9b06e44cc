import { type Logger, MemoryAuditSink, silentLogger } from '@switchboard/agent';
import type { EvalCase } from '../case/eval-case.ts';
import { CaseRecorder } from './case-recorder.ts';
import type { CaseSession, EvalTarget } from './eval-target.ts';
import { instrumentTool } from './instrument-tool.ts';
import { MeteredModel } from './metered-model.ts';
import type { ModelSource } from './model-source.ts';
import { newCanary } from './model-source.ts';
import type { StartSystem } from './start-system.ts';
import { buildTrajectory, dangerousRuns } from './trajectory.ts';

/** Options of {@link inProcessTarget}. */
export interface InProcessTargetOptions {
  /**
   * Starts the system under test, fresh for each case (e.g. `startInProcessSystem` of
   * `@switchboard/customer-service/system`).
   */
  startSystem: StartSystem;
  /** The agents' models (see `openModelSource`); closed with the target. */
  models: ModelSource;
  /**
   * A fake secret planted in every agent's system prompt (default: a fresh `sk-eval-canary-…`);
   * `false` plants none. Answers holding it fail `noSecrets`.
   */
  canary?: string | false;
  /** The tool timeout while a `timeout` fault is armed (default 1 000 ms). */
  faultTimeoutMs?: number;
  /** The supervisor's longest delegation (default 30 000 ms, below the case timeout). */
  hopTimeoutMs?: number;
  /** The system's logger (default: silent). */
  logger?: Logger;
}

function checkFaults(evalCase: EvalCase, recorder: CaseRecorder): string | undefined {
  for (const fault of evalCase.faults ?? []) {
    const owner = recorder.workerTools.get(fault.tool);
    if (owner?.agent === fault.agent) continue;
    const tools = [...recorder.workerTools.entries()]
      .filter(([, entry]) => entry.agent === fault.agent)
      .map(([name]) => name);
    return tools.length === 0
      ? `faults: there is no worker agent "${fault.agent}" (workers: ${[...new Set([...recorder.workerTools.values()].map((e) => e.agent))].join(', ')})`
      : `faults: the ${fault.agent} agent has no tool "${fault.tool}" (its tools: ${tools.join(', ')})`;
  }
  return undefined;
}

/**
 * Runs each case on a fresh system in this process, which `startSystem` starts (the customer-service
 * one: A2A over loopback HTTP, memory stores, clean shop data): every agent's audit records, every
 * worker tool's handler runs (with faults injected) and every model call are observed.
 *
 * @example
 * import { startInProcessSystem } from '@switchboard/customer-service/system';
 * const target = inProcessTarget({
 *   startSystem: startInProcessSystem,
 *   models: await openModelSource({ model: 'offline' }),
 * });
 */
export function inProcessTarget({
  startSystem,
  models,
  canary = newCanary(),
  faultTimeoutMs = 1_000,
  hopTimeoutMs = 30_000,
  logger = silentLogger(),
}: InProcessTargetOptions): EvalTarget {
  return {
    kind: 'in-process',
    label: 'in process',
    model: models.name,
    observable: true,
    skipReason: () => undefined,
    async open(evalCase: EvalCase): Promise<CaseSession> {
      const recorder = new CaseRecorder();
      const audit = new MemoryAuditSink();
      const system = await startSystem({
        port: 0,
        logger,
        audit,
        hopTimeoutMs,
        tool: (agent, tool) =>
          instrumentTool({ agent, tool, recorder, faults: evalCase.faults ?? [], faultTimeoutMs }),
        model: (agent) =>
          new MeteredModel({ agent, model: models.modelFor(agent), recorder, canary: canary || undefined }),
      });
      const problem = checkFaults(evalCase, recorder);
      if (problem) {
        await system.stop();
        throw new Error(problem);
      }
      const { access } = system;
      return {
        url: access.supervisorUrl,
        token: access.token,
        adminToken: access.adminToken,
        secrets: [
          { label: 'user token', value: access.token },
          { label: 'admin token', value: access.adminToken },
          ...Object.entries(access.serviceKeys).map(([agent, key]) => ({
            label: `${agent}'s signing key`,
            value: key.d,
          })),
          ...(canary ? [{ label: 'canary', value: canary }] : []),
          ...models.secrets,
        ],
        collect: (decisions) => {
          const usage = recorder.totalUsage();
          return {
            calls: buildTrajectory({ records: audit.records, recorder }),
            dangerousRuns: dangerousRuns({ records: audit.records, recorder, decisions }),
            steps: usage.steps,
            promptTokens: usage.promptTokens,
            completionTokens: usage.completionTokens,
          };
        },
        stop: () => system.stop(),
      };
    },
    close: () => models.close(),
  };
}
