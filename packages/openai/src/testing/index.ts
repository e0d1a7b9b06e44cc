/**
 * `@switchboard/openai/testing`: an OpenAI-compatible server on loopback that serves any `ChatModel`
 * (and, given `embed`, a stand-in embedding model) over Chat Completions and `/embeddings`, so tests
 * reach a model through the real `openai` client over real HTTP, as users test their own agents. It
 * does not load the `openai` client itself.
 */
export type { EmbedText } from './embeddings-endpoint.ts';
export type { OpenAICompatibleServer, OpenAICompatibleServerOptions } from './openai-compatible-server.ts';
export { startOpenAICompatibleServer } from './openai-compatible-server.ts';
