export { MODEL_PACKAGES } from './load-model.ts';
export {
  LOCAL_EMBEDDING_MODEL,
  LocalEmbedder,
  type LocalEmbedderOptions,
} from './local-embedder.ts';
