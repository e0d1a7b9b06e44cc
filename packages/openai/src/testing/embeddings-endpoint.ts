import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { sendError } from './openai-compatible-answer.ts';

/** Embeds one text: the stand-in for an embedding model that `startOpenAICompatibleServer` serves. */
export type EmbedText = (text: string) => number[];

/** The part of an OpenAI `POST /v1/embeddings` body this server reads. */
const EmbeddingsRequestBody = z.object({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.string()).min(1)]),
  encoding_format: z.enum(['float', 'base64']).optional(),
});

/** Answers an embeddings request as OpenAI does: one `embedding` per input, in order. */
export function answerEmbeddings(json: unknown, embed: EmbedText, res: ServerResponse): void {
  const parsed = EmbeddingsRequestBody.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    sendError(res, 400, {
      message: `Invalid embeddings request at "${issue?.path.join('.') ?? ''}": ${issue?.message ?? 'invalid shape'}.`,
      code: 'invalid_value',
    });
    return;
  }
  const { model, input, encoding_format: format = 'float' } = parsed.data;
  const texts = typeof input === 'string' ? [input] : input;
  const data = texts.map((text, index) => {
    const vector = embed(text);
    const embedding =
      format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
    return { object: 'embedding', index, embedding };
  });
  const tokens = texts.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({ object: 'list', model, data, usage: { prompt_tokens: tokens, total_tokens: tokens } }),
  );
}
