// The operators' console: server-rendered pages beside a supervisor's admin API, behind operator
// sign-in, where an operator decides what waits for approval and sees the team.
export type { AgentRecords, AgentRecordsOf } from './agent-records.ts';
export { registryAgentRecords } from './agent-records.ts';
export type { ConsoleOptions } from './console-router.ts';
export { CONSOLE_PATH, consoleRouter, consoleRoutes } from './console-router.ts';
export type { EvalHistory, EvalReportFile, EvalsView, FileEvalsViewOptions } from './evals-view.ts';
export { fileEvalsView } from './evals-view.ts';
export type { Placed, SafeHtml } from './html/html.ts';
export { html } from './html/html.ts';
export type { RedisShadowViewOptions, ShadowReportRow, ShadowView } from './shadow-view.ts';
export { redisShadowView } from './shadow-view.ts';
export type { AgentQueue, TeamAgent, TeamView } from './team-view.ts';
export { REQUIRES_APPROVAL_TAG, registryTeamView } from './team-view.ts';
export type { RequestTrace, SpanTraceViewOptions, TraceView } from './trace-view.ts';
export { spanTraceView } from './trace-view.ts';
