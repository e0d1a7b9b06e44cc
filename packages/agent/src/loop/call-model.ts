import { GEN_AI, genAiSpanName } from '@switchboard/semconv';
import { AgentError, isAgentError } from '../errors.ts';
import type { ChatModel, ChatRequest, ChatResponse } from '../model/chat-model.ts';
import type { Logger } from '../observe/logger.ts';
import type { AgentTracer } from '../observe/tracer.ts';

/**
 * One model call inside a `chat {model}` span: streamed when `onTextDelta` is given, so text deltas
 * reach the caller as they come, else one complete answer. Non-agent errors from an adapter are
 * wrapped, logged, and never put on the span raw.
 */
export function callModel({
  model,
  request,
  tracer,
  logger,
  conversationId,
  agent,
  onTextDelta,
}: {
  model: ChatModel;
  request: ChatRequest;
  tracer: AgentTracer;
  logger: Logger;
  conversationId: string;
  agent?: string;
  onTextDelta?: ((delta: string) => void) | undefined;
}): Promise<ChatResponse> {
  const attributes = {
    [GEN_AI.operationName]: 'chat',
    [GEN_AI.providerName]: model.provider,
    [GEN_AI.requestModel]: model.modelId,
    [GEN_AI.conversationId]: conversationId,
    [GEN_AI.agentName]: agent,
  };
  return tracer.inSpan(
    { operation: 'chat', name: genAiSpanName({ operation: 'chat', target: model.modelId }), attributes },
    async (span) => {
      try {
        let response: ChatResponse | undefined;
        if (onTextDelta) {
          for await (const event of model.stream(request)) {
            if (event.type === 'text-delta') onTextDelta(event.delta);
            else if (event.type === 'finish') response = event.response;
          }
        } else {
          response = await model.generate(request);
        }
        if (!response) {
          throw new AgentError('MODEL_BAD_RESPONSE', {
            message: `Model ${model.modelId} ended its stream without an answer.`,
          });
        }
        span.setAttributes({
          [GEN_AI.responseModel]: response.model,
          [GEN_AI.responseId]: response.id,
          [GEN_AI.responseFinishReasons]: [response.finishReason],
          [GEN_AI.usageInputTokens]: response.usage.promptTokens,
          [GEN_AI.usageOutputTokens]: response.usage.completionTokens,
        });
        return response;
      } catch (error) {
        const wrapped = isAgentError(error)
          ? error
          : new AgentError(request.signal?.aborted ? 'ABORTED' : 'MODEL_BAD_RESPONSE', {
              message: `Model ${model.modelId} failed.`,
              cause: error,
            });
        if (wrapped.code !== 'ABORTED')
          logger.error({ err: error, agent, conversationId }, 'model call failed');
        span.setError(
          wrapped.code,
          wrapped.code === 'ABORTED' ? 'canceled' : `model call failed (${wrapped.code})`,
        );
        throw wrapped;
      }
    },
  );
}
