import { z } from 'zod';
import type { ToolDeclaration } from '../model/messages.ts';
import type { AnyTool } from './define-tool.ts';

/** Section labels of a tool description; the offline planner reads them back. */
export const DESCRIPTION_LABELS = { whenToUse: 'Use when:', whenNotToUse: 'Do not use when:' } as const;

/** The description the model reads: the summary, then when to use the tool and when not to. */
export function describeTool(tool: AnyTool): string {
  const lines = [tool.summary.trim(), `${DESCRIPTION_LABELS.whenToUse} ${tool.whenToUse.trim()}`];
  if (tool.whenNotToUse?.trim()) lines.push(`${DESCRIPTION_LABELS.whenNotToUse} ${tool.whenNotToUse.trim()}`);
  return lines.join('\n');
}

/** The JSON Schema of a zod schema as a model expects it (input shape, no `$schema` key). */
export function toModelSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return rest;
}

/** The declaration sent to the model for a tool, generated from its zod schema and texts. */
export function declareTool(tool: AnyTool): ToolDeclaration {
  return {
    type: 'function',
    function: { name: tool.name, description: describeTool(tool), parameters: toModelSchema(tool.input) },
    effects: { risk: tool.risk, idempotent: tool.idempotent },
  };
}
