import type { AnyTool, AuditSink, ChatModel, Logger } from '@switchboard/agent';
import { LEGACY_USERS_OPTION } from '../legacy-vocabulary.ts';

/** What the in-process target asks of the system it starts for one case. */
export interface StartSystemOptions {
  /** The supervisor's port (0: any free one). */
  port: number;
  logger: Logger;
  /** Where every agent writes its audit records: the trajectory is read from them. */
  audit: AuditSink;
  /** Every worker tool passes through it, to come back instrumented (and faulty, when a case says so). */
  tool: (agent: string, tool: AnyTool) => AnyTool;
  /** Each agent's model, by agent name. */
  model: (agent: string) => ChatModel;
  /** The supervisor's longest delegation. */
  hopTimeoutMs: number;
}

/** A system started for one case: where its supervisor answers, with which tokens, and how to stop it. */
export interface StartedSystem {
  access: {
    supervisorUrl: string;
    /** A user's token (A2A calls). */
    token: string;
    /** A token of every user of the system, by user id: a case is sent with its user's. */
    users?: Readonly<Record<string, string>>;
    /**
     * @deprecated The 0.2 name of `users` (what a team's `startInProcess` still returns): read when
     * `users` is not given, for one release.
     */
    [LEGACY_USERS_OPTION]?: Readonly<Record<string, string>>;
    /** An operator's token (the admin API). */
    adminToken: string;
    /**
     * Each agent's private signing key (its JWK's secret part `d`), by agent name: what the agents
     * prove themselves to each other with; an answer must not hold it either.
     */
    serviceKeys: Readonly<Record<string, { d: string }>>;
  };
  stop(): Promise<void>;
}

/**
 * Starts a fresh system in this process for one case: a supervisor agent over A2A HTTP and the worker
 * agents it delegates to, with clean data. The team supplies it (`startInProcess` of a team module,
 * `@switchboard/team`), so the eval runner depends on no domain.
 */
export type StartSystem = (options: StartSystemOptions) => Promise<StartedSystem>;

/** The users' tokens of a started system, under either name. */
export function usersOf(access: StartedSystem['access']): Readonly<Record<string, string>> {
  return access.users ?? access[LEGACY_USERS_OPTION] ?? {};
}
