export type {
  RecordedRequest,
  ScriptedModelOptions,
  ScriptedToolCall,
  ScriptedTurn,
} from './scripted-model.js';
export { ScriptedModel } from './scripted-model.js';
