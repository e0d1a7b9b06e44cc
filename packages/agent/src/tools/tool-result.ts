/** Why a tool call did not produce data; each cause has its own code. */
export const TOOL_ERROR_CODES = [
  'UNKNOWN_TOOL',
  'INVALID_JSON',
  'INVALID_ARGUMENTS',
  'PERMISSION_DENIED',
  'APPROVAL_REQUIRED',
  'APPROVAL_DENIED',
  'TIMEOUT',
  'TOOL_FAILED',
  'CANCELED',
  'DUPLICATE_SUPPRESSED',
  'TOO_MANY_APPROVALS',
] as const;
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

/** A failed tool call as the model sees it: our words, never a raw error. */
export interface ToolFailure {
  code: ToolErrorCode;
  message: string;
  /** What the model should do next, e.g. "Fix the arguments and call get_order again." */
  hint?: string;
}

/**
 * The one envelope for every tool result the model sees, serialised as the `tool` message content:
 * `{"ok":true,"data":...}` or `{"ok":false,"error":{"code":...,"message":...,"hint":...}}`.
 */
export type ToolResultEnvelope = { ok: true; data: unknown } | { ok: false; error: ToolFailure };

/** A successful result. */
export function toolOk(data: unknown): ToolResultEnvelope {
  return { ok: true, data: data ?? null };
}

/** A failed result. */
export function toolError(code: ToolErrorCode, message: string, hint?: string): ToolResultEnvelope {
  return { ok: false, error: hint === undefined ? { code, message } : { code, message, hint } };
}

/** Reads an envelope back from a `tool` message's content; undefined when it is not one of ours. */
export function parseToolResult(content: string): ToolResultEnvelope | undefined {
  try {
    const value: unknown = JSON.parse(content);
    if (typeof value !== 'object' || value === null || !('ok' in value)) return undefined;
    if (value.ok === true && 'data' in value) return { ok: true, data: value.data };
    if (value.ok === false && 'error' in value && typeof value.error === 'object' && value.error !== null) {
      const error = value.error as Partial<ToolFailure>;
      if (typeof error.code === 'string' && typeof error.message === 'string') {
        return toolError(error.code as ToolErrorCode, error.message, error.hint);
      }
    }
    return undefined;
  } catch {
    return undefined;
  }
}
