/**
 * `@switchboard/openai`: the `ChatModel` adapter for OpenAI-compatible Chat Completions
 * endpoints, and the `Embedder` for their `/embeddings` (the tool router's embedding recall) (OpenAI, Azure OpenAI, vLLM, Ollama, DashScope/Qwen, ...), built on the official
 * `openai` client. Only this entry point loads `openai`; the agent runtime and `@switchboard/openai/testing` do not.
 */
export type { OpenAIChatModelOptions } from './openai-chat-model.ts';
export { OpenAIChatModel } from './openai-chat-model.ts';
export type { OpenAIEmbedderOptions } from './openai-embedder.ts';
export { OpenAIEmbedder } from './openai-embedder.ts';
