import { type Logger, MemoryAuditSink, silentLogger } from '@switchboard/agent';
import { callerOf, describeCaller, type EvalCase, userTexts } from '../case/eval-case.ts';
import { LEGACY_USERS_OPTION } from '../legacy-vocabulary.ts';
import { CaseRecorder } from './case-recorder.ts';
import { foreignData, toolLeaks, type UserFootprint } from './cross-user.ts';
import type { CaseSession, EvalTarget } from './eval-target.ts';
import { instrumentTool } from './instrument-tool.ts';
import { MeteredModel } from './metered-model.ts';
import type { ModelSource } from './model-source.ts';
import { newCanary } from './model-source.ts';
import { type StartedSystem, type StartSystem, usersOf } from './start-system.ts';
import { buildTrajectory, dangerousRuns } from './trajectory.ts';

/** Options of {@link inProcessTarget}. */
export interface InProcessTargetOptions {
  /**
   * Starts the system under test, fresh for each case (e.g. a team's `startInProcess`, see
   * `@switchboard/team`).
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
  /**
   * The system's users and their data (a team's `evals.users()`): what no case may show of a user
   * other than its own. Without them nothing is checked for cross-user data (the metrics are `n/a`).
   */
  users?: readonly UserFootprint[] | undefined;
  /** @deprecated Renamed `users`; read when `users` is not given, for one release. */
  [LEGACY_USERS_OPTION]?: readonly UserFootprint[] | undefined;
}

/** The token a case is sent with: its user's, or the operator's; an error naming the users there are. */
function tokenFor(evalCase: EvalCase, access: StartedSystem['access']): string {
  const caller = callerOf(evalCase);
  if (caller.kind === 'operator') return access.adminToken;
  const users = usersOf(access);
  const token = users[caller.id];
  if (token) return token;
  throw new Error(
    `the system has no token for ${describeCaller(caller)} (its users: ${Object.keys(users).join(', ') || 'none'}); name one of them in the case's user:, or declare it in the team's users.ids`,
  );
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
 * Runs each case on a fresh system in this process, which `startSystem` starts (a team's: A2A over
 * loopback HTTP, memory stores, clean data), sent with the token of the case's user (or an
 * operator's, `as: operator`): every agent's audit records, every worker tool's handler runs (with
 * faults injected) and every model call are observed, and, with `users`, what reached the asker or
 * the supervisor of another user's data.
 *
 * @example
 * const target = inProcessTarget({
 *   startSystem: team.startInProcess, // a team module's default export (`@switchboard/team`)
 *   models: await openModelSource({ model: 'offline' }),
 *   users: team.evals?.users?.(),
 * });
 */
export function inProcessTarget({
  startSystem,
  models,
  canary = newCanary(),
  faultTimeoutMs = 1_000,
  hopTimeoutMs = 30_000,
  logger = silentLogger(),
  users,
  [LEGACY_USERS_OPTION]: legacyUsers,
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
      const { access } = system;
      let token: string;
      try {
        const problem = checkFaults(evalCase, recorder);
        if (problem) throw new Error(problem);
        token = tokenFor(evalCase, access);
      } catch (error) {
        await system.stop();
        throw error;
      }
      const foreign = foreignData({
        users: users ?? legacyUsers,
        caller: callerOf(evalCase),
        said: userTexts(evalCase),
      });
      const userTokens = usersOf(access);
      return {
        url: access.supervisorUrl,
        token,
        adminToken: access.adminToken,
        foreign,
        secrets: [
          ...Object.entries(userTokens).map(([id, value]) => ({
            label: `user token (${id})`,
            value,
          })),
          ...(Object.values(userTokens).includes(access.token)
            ? []
            : [{ label: 'user token', value: access.token }]),
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
            ...(foreign
              ? {
                  crossUserLeaks: toolLeaks({
                    runs: recorder.runs,
                    toolResults: recorder.toolResults(),
                    workerAgents: new Set([...recorder.workerTools.values()].map((entry) => entry.agent)),
                    foreign,
                  }),
                }
              : {}),
          };
        },
        stop: () => system.stop(),
      };
    },
    close: () => models.close(),
  };
}
