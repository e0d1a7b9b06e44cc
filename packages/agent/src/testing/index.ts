export type { DelayedModelOptions } from './delayed-model.ts';
export { DelayedModel } from './delayed-model.ts';
export type { LogEntry } from './memory-logger.ts';
export { MemoryLogger } from './memory-logger.ts';
export type { RecordedSpan } from './recording-tracer.ts';
export { RecordingTracer } from './recording-tracer.ts';
export type {
  RecordedRequest,
  ScriptedModelOptions,
  ScriptedToolCall,
  ScriptedTurn,
} from './scripted-model.ts';
export { ScriptedModel } from './scripted-model.ts';
