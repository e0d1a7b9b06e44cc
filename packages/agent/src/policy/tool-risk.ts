/**
 * How much a tool can change the world. `read` runs freely; `write` runs and is audited;
 * `dangerous` runs only after a human approver says yes.
 */
export type ToolRisk = 'read' | 'write' | 'dangerous';

/** Every {@link ToolRisk}, for checking a definition written without types. */
export const TOOL_RISKS: readonly ToolRisk[] = ['read', 'write', 'dangerous'];
