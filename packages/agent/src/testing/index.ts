export type { DelayedModelOptions } from './delayed-model.js';
export { DelayedModel } from './delayed-model.js';
export type { LogEntry } from './memory-logger.js';
export { MemoryLogger } from './memory-logger.js';
export type { OpenAICompatibleServer, OpenAICompatibleServerOptions } from './openai-compatible-server.js';
export { startOpenAICompatibleServer } from './openai-compatible-server.js';
export type { RecordedSpan } from './recording-tracer.js';
export { RecordingTracer } from './recording-tracer.js';
export type {
  RecordedRequest,
  ScriptedModelOptions,
  ScriptedToolCall,
  ScriptedTurn,
} from './scripted-model.js';
export { ScriptedModel } from './scripted-model.js';
