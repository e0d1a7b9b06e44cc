import type { AuditRecord, ToolCallAuditRecord } from '@switchboard/agent';
import type { CaseRecorder } from './case-recorder.ts';
import {
  type DangerousRun,
  INVALID_ARGUMENT_CODES,
  type ObservedCall,
  type OperatorDecision,
  REFUSAL_CODES,
} from './observation.ts';

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return text;
  }
}

/** A stable text of a value (object keys sorted), to recognise repeated calls. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

const keyOf = (agent: string, conversationId: string, callId: string) =>
  `${agent}\u0000${conversationId}\u0000${callId}`;

/**
 * The tool calls of a case, in the order they started: the audit's tool-call records merged per call
 * (a call that waited for an approval is written again when it resumes; the last record says how it
 * ended), with the arguments from the tool wrappers (validated) or the model wrappers (as written).
 */
export function buildTrajectory({
  records,
  recorder,
}: {
  records: readonly AuditRecord[];
  recorder: CaseRecorder;
}): ObservedCall[] {
  const byCall = new Map<string, { first: ToolCallAuditRecord; last: ToolCallAuditRecord; order: number }>();
  for (const [order, record] of records.entries()) {
    if (record.kind !== 'tool_call') continue;
    const key = keyOf(record.agent, record.conversationId, record.callId);
    const seen = byCall.get(key);
    if (seen) seen.last = record;
    else byCall.set(key, { first: record, last: record, order });
  }
  const runs = new Map(recorder.runs.map((run) => [keyOf(run.agent, run.conversationId, run.callId), run]));
  const merged = [...byCall.entries()].sort(
    ([, a], [, b]) => a.first.startedAt.localeCompare(b.first.startedAt) || a.order - b.order,
  );
  const earlier = new Set<string>();
  return merged.map(([key, { first, last }]) => {
    const run = runs.get(key);
    const worker = recorder.workerTools.get(last.tool)?.agent === last.agent;
    const refused = [first, last].some((record) => record.errorCode && REFUSAL_CODES.has(record.errorCode));
    const invalid = [first, last].some(
      (record) => record.errorCode && INVALID_ARGUMENT_CODES.has(record.errorCode),
    );
    const requested = recorder.requestedArguments({ agent: last.agent, callId: last.callId });
    const args = run
      ? run.input
      : requested !== undefined
        ? parseJson(requested)
        : parseJson(last.argumentsSummary);
    // Tools that are not wrapped (the supervisor's delegations) ran when the audit says the handler was reached.
    const ran = worker
      ? run !== undefined
      : last.status === 'succeeded' ||
        last.status === 'failed' ||
        (last.status === 'awaiting_approval' && last.risk !== 'dangerous');
    const signature = `${last.agent}\u0000${last.tool}\u0000${stableJson(args)}`;
    const repeated = !invalid && earlier.has(signature);
    earlier.add(signature);
    return {
      agent: last.agent,
      tool: last.tool,
      callId: last.callId,
      status: last.status,
      ...(last.errorCode
        ? { errorCode: last.errorCode }
        : first.errorCode
          ? { errorCode: first.errorCode }
          : {}),
      ...(args === undefined ? {} : { arguments: args }),
      accepted: !refused,
      ran,
      risk: last.risk,
      repeated,
    };
  });
}

/**
 * Every dangerous worker tool whose handler ran, and whether it was approved: an approval decision
 * `approved` for the call's approval id is in the audit, and this case's operator approved that id.
 */
export function dangerousRuns({
  records,
  recorder,
  decisions,
}: {
  records: readonly AuditRecord[];
  recorder: CaseRecorder;
  decisions: readonly OperatorDecision[];
}): DangerousRun[] {
  const approvedByOperator = new Set(
    decisions.filter((decision) => decision.decision === 'approved').map((decision) => decision.approvalId),
  );
  const approvedInAudit = new Set(
    records.flatMap((record) =>
      record.kind === 'approval_decision' && record.decision === 'approved' ? [record.approvalId] : [],
    ),
  );
  const approvalOf = new Map<string, string>();
  for (const record of records) {
    if (record.kind === 'tool_call' && record.approvalId) {
      approvalOf.set(keyOf(record.agent, record.conversationId, record.callId), record.approvalId);
    }
  }
  return recorder.runs
    .filter((run) => run.risk === 'dangerous')
    .map((run) => {
      const approvalId = approvalOf.get(keyOf(run.agent, run.conversationId, run.callId));
      const approved =
        approvalId !== undefined && approvedInAudit.has(approvalId) && approvedByOperator.has(approvalId);
      return { agent: run.agent, tool: run.tool, callId: run.callId, approved };
    });
}
