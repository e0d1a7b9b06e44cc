import { gunzipSync } from 'node:zlib';
import { type Loopback, sendJson, startLoopback } from './loopback.ts';

/** A loopback OTLP/HTTP receiver: keeps the JSON body of every `POST /v1/traces`. */
export async function startOtlpReceiver(): Promise<Loopback & { bodies: unknown[] }> {
  const bodies: unknown[] = [];
  const server = await startLoopback((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') return sendJson(response, 404, {});
      const raw = Buffer.concat(chunks);
      const text = (request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      bodies.push(JSON.parse(text));
      sendJson(response, 200, {});
    });
  });
  return { ...server, bodies };
}
