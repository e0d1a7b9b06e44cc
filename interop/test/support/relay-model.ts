import { MockLanguageModelV3 } from 'ai/test';

type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** The text of the last tool result in a model's prompt: what a delegation handed back. */
export function lastToolResult(options: CallOptions): string | undefined {
  const results = options.prompt.flatMap((message) =>
    message.role === 'tool' ? message.content.filter((part) => part.type === 'tool-result') : [],
  );
  const output = results.at(-1)?.output;
  if (!output) return undefined;
  if (output.type === 'text' || output.type === 'error-text') return output.value;
  if (output.type === 'json' || output.type === 'error-json')
    return typeof output.value === 'string' ? output.value : JSON.stringify(output.value);
  return JSON.stringify(output);
}

/**
 * A parent agent's model that delegates once, calling `tool` with `{ prompt }`, and then answers with
 * exactly what the delegation handed back, as a model quoting its sub-agent would. `seen` collects
 * each tool result it was given.
 */
export function relayModel({ tool, prompt }: { tool: string; prompt: string }): {
  model: MockLanguageModelV3;
  seen: string[];
} {
  const seen: string[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options): Promise<GenerateResult> => {
      const result = lastToolResult(options);
      if (result === undefined)
        return {
          content: [
            { type: 'tool-call', toolCallId: 'call-1', toolName: tool, input: JSON.stringify({ prompt }) },
          ],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        };
      seen.push(result);
      return {
        content: [{ type: 'text', text: result }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
  return { model, seen };
}
