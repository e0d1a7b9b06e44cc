export { describeIssues, jsonPath } from './case/case-issues.js';
export {
  ApproveTurn,
  DenyTurn,
  EvalCase,
  Expectations,
  ExpectedCall,
  Fault,
  FaultKind,
  MatchMode,
  SUITES,
  Suite,
  TaskStateName,
  Turn,
  UserTurn,
} from './case/eval-case.js';
export type { LoadCasesOptions, LoadedCase } from './case/load-cases.js';
export { checkCaseValue, isSuite, loadCases } from './case/load-cases.js';
export { checkCase, checkExpectations, countCase, skippedCase } from './check/check-case.js';
export type { ToolMatch } from './check/match-tools.js';
export { callMatches, describeCall, describeExpected, matchTools } from './check/match-tools.js';
export type { EvalErrorCode } from './errors.js';
export { EVAL_ERRORS, EvaluationError, isEvaluationError } from './errors.js';
export type { CompareReportsOptions, GatedMetric, GateResult, Regression } from './gate/compare-reports.js';
export { compareReports, GATED_METRICS, readReport } from './gate/compare-reports.js';
export { computeMetrics, metricsBySuite } from './metrics/compute-metrics.js';
export {
  CaseCounts,
  CaseResult,
  EvalReport,
  ExpectationResult,
  ExpectationStatus,
  Metrics,
} from './report/eval-report.js';
export { formatMarkdownReport } from './report/format-markdown.js';
export { formatTerminalReport } from './report/format-terminal.js';
export { baselineReport, formatReportJson } from './report/report-json.js';
export type { AgentUsage, HandlerRun } from './run/case-recorder.js';
export { CaseRecorder } from './run/case-recorder.js';
export type { DeploymentTargetOptions } from './run/deployment-target.js';
export { deploymentTarget } from './run/deployment-target.js';
export type { CaseSession, EvalTarget, SystemSecret, TargetObservation } from './run/eval-target.js';
export type { InProcessTargetOptions } from './run/in-process-target.js';
export { inProcessTarget } from './run/in-process-target.js';
export type { InstrumentToolOptions } from './run/instrument-tool.js';
export { instrumentTool, MALFORMED_RESULT } from './run/instrument-tool.js';
export type { MeteredModelOptions } from './run/metered-model.js';
export { MeteredModel } from './run/metered-model.js';
export type { ModelSource, OpenModelSourceOptions } from './run/model-source.js';
export { newCanary, openModelSource } from './run/model-source.js';
export {
  DangerousRun,
  INVALID_ARGUMENT_CODES,
  Observation,
  ObservedCall,
  OperatorDecision,
  REFUSAL_CODES,
} from './run/observation.js';
export type { ObserveCaseOptions } from './run/run-case.js';
export { findSecrets, observeCase, redactSecrets } from './run/run-case.js';
export type { RunEvalsOptions } from './run/run-evals.js';
export { runEvals } from './run/run-evals.js';
export { buildTrajectory, dangerousRuns } from './run/trajectory.js';
