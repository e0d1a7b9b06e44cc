/**
 * `@switchboard/agent/openai`: the `ChatModel` adapter for OpenAI-compatible Chat Completions
 * endpoints (OpenAI, Azure OpenAI, vLLM, Ollama, DashScope/Qwen, ...), built on the official
 * `openai` client. Only this entry point loads `openai`; the runtime's main entry does not.
 */
export type { OpenAIChatModelOptions } from './openai-chat-model.ts';
export { OpenAIChatModel } from './openai-chat-model.ts';
