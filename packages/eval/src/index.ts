export { describeIssues, jsonPath } from './case/case-issues.ts';
export type { Caller } from './case/eval-case.ts';
export {
  ApproveTurn,
  CROSS_USER_TAG,
  callerOf,
  DenyTurn,
  describeCaller,
  EvalCase,
  Expectations,
  ExpectedCall,
  Fault,
  FaultKind,
  isCrossUserCase,
  MatchMode,
  SUITES,
  Suite,
  TaskStateName,
  Turn,
  UserTurn,
  userOf,
  userTexts,
} from './case/eval-case.ts';
export type { LoadCasesOptions, LoadedCase } from './case/load-cases.ts';
export { checkCaseValue, isSuite, loadCases } from './case/load-cases.ts';
export { checkCase, checkExpectations, countCase, skippedCase } from './check/check-case.ts';
export type { ToolMatch } from './check/match-tools.ts';
export { callMatches, describeCall, describeExpected, matchTools } from './check/match-tools.ts';
// 0.2's names, deprecated for one release (docs/migration.md).
export * from './deprecated.ts';
export type { EvalErrorCode } from './errors.ts';
export { EVAL_ERRORS, EvaluationError, isEvaluationError } from './errors.ts';
export type { CompareReportsOptions, GatedMetric, GateResult, Regression } from './gate/compare-reports.ts';
export { compareReports, GATED_METRICS, readReport } from './gate/compare-reports.ts';
export { computeMetrics, metricsBySuite } from './metrics/compute-metrics.ts';
export {
  CaseCounts,
  CaseResult,
  EvalReport,
  ExpectationResult,
  ExpectationStatus,
  Metrics,
} from './report/eval-report.ts';
export { formatMarkdownReport } from './report/format-markdown.ts';
export { formatTerminalReport } from './report/format-terminal.ts';
export type { MetricRow } from './report/metric-rows.ts';
export { METRIC_ROWS } from './report/metric-rows.ts';
export { baselineReport, formatReportJson } from './report/report-json.ts';
export { formatRoutingReport } from './routing/format-routing-report.ts';
export type { RoutingCatalogue } from './routing/routing-catalogue.ts';
export {
  CatalogueTool,
  expectedTools,
  LabelledRequest,
  loadRoutingCatalogue,
  RoutingExpectation,
} from './routing/routing-catalogue.ts';
export type {
  RoutedRequestResult,
  RoutingArmFigures,
  RoutingReport,
  RunRoutingEvalOptions,
} from './routing/run-routing-eval.ts';
export { runRoutingEval } from './routing/run-routing-eval.ts';
export type { AgentUsage, HandlerRun } from './run/case-recorder.ts';
export { CaseRecorder } from './run/case-recorder.ts';
export type { ForeignData } from './run/cross-user.ts';
export {
  CrossUserLeak,
  describeLeak,
  foreignData,
  foreignWrites,
  isRefusal,
  leaksInText,
  toolLeaks,
  UserDatum,
  UserFootprint,
} from './run/cross-user.ts';
export type { DeploymentTargetOptions } from './run/deployment-target.ts';
export { deploymentTarget, usersWithoutToken } from './run/deployment-target.ts';
export type { CaseSession, EvalTarget, SystemSecret, TargetObservation } from './run/eval-target.ts';
export type { InProcessTargetOptions } from './run/in-process-target.ts';
export { inProcessTarget } from './run/in-process-target.ts';
export type { InstrumentToolOptions } from './run/instrument-tool.ts';
export { instrumentTool, MALFORMED_RESULT } from './run/instrument-tool.ts';
export type { MeteredModelOptions } from './run/metered-model.ts';
export { MeteredModel } from './run/metered-model.ts';
export type { ModelSource, OpenModelSourceOptions } from './run/model-source.ts';
export { newCanary, openModelSource } from './run/model-source.ts';
export {
  DangerousRun,
  INVALID_ARGUMENT_CODES,
  Observation,
  ObservedCall,
  OperatorDecision,
  REFUSAL_CODES,
} from './run/observation.ts';
export type { ObserveCaseOptions } from './run/run-case.ts';
export { findSecrets, observeCase, redactSecrets } from './run/run-case.ts';
export type { RunEvalsOptions } from './run/run-evals.ts';
export { runEvals } from './run/run-evals.ts';
export type { StartedSystem, StartSystem, StartSystemOptions } from './run/start-system.ts';
export { usersOf } from './run/start-system.ts';
export { buildTrajectory, dangerousRuns } from './run/trajectory.ts';
