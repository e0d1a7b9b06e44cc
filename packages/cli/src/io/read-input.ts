import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** A redirect a card's URL answered with, and followed (`followRedirects`). */
export interface FollowedRedirect {
  from: string;
  to: string;
  status: number;
}

/**
 * A card read from a file or URL, or why it could not be read; `redirects`, when a URL's redirects
 * were followed to it.
 */
export type CardInput = ({ source: string; json: unknown } | { source: string; error: string }) & {
  redirects?: FollowedRedirect[];
};

/** The most redirects followed for one card. */
const MAX_REDIRECTS = 5;

/** Cards are small documents; anything bigger is refused before it is read. */
export const MAX_CARD_BYTES = 5 * 1024 * 1024;

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function parse(source: string, text: string): CardInput {
  try {
    return { source, json: JSON.parse(text) };
  } catch (error) {
    return {
      source,
      error: `not JSON (${error instanceof Error ? error.message : 'parse error'}); a card is one JSON object`,
    };
  }
}

async function readUrl(
  url: string,
  {
    a2aVersion,
    timeoutMs,
    followRedirects,
  }: { a2aVersion: string; timeoutMs: number; followRedirects: boolean },
): Promise<CardInput> {
  const asked = /\.json($|\?)/.test(url) ? url : `${url.replace(/\/+$/, '')}/.well-known/agent-card.json`;
  const redirects: FollowedRedirect[] = [];
  let target = asked;
  const failed = (error: string): CardInput => ({
    source: target,
    error,
    ...(redirects.length > 0 ? { redirects } : {}),
  });
  try {
    const signal = AbortSignal.timeout(timeoutMs);
    for (;;) {
      // Redirects are not followed unasked: the card checked is the one at the URL given, or the
      // user is told where else it was read.
      const response = await fetch(target, {
        headers: a2aVersion ? { 'A2A-Version': a2aVersion } : {},
        redirect: 'manual',
        signal,
      });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        const to = new URL(location, target).href;
        if (!followRedirects)
          return failed(
            `the server redirects (HTTP ${response.status}) to ${to}; check that URL, or pass --follow-redirects`,
          );
        if (redirects.length >= MAX_REDIRECTS)
          return failed(`more than ${MAX_REDIRECTS} redirects; check the URL the last one names, ${to}`);
        if (!/^https?:$/.test(new URL(to).protocol))
          return failed(`a redirect to ${to}, which is not http(s)`);
        redirects.push({ from: target, to, status: response.status });
        target = to;
        continue;
      }
      if (!response.ok) return failed(`the server answered HTTP ${response.status} ${response.statusText}`);
      const declared = Number(response.headers.get('content-length') ?? 0);
      if (declared > MAX_CARD_BYTES)
        return failed(`the card is ${megabytes(declared)}; the limit is ${megabytes(MAX_CARD_BYTES)}`);
      const body = await response.text();
      if (Buffer.byteLength(body) > MAX_CARD_BYTES)
        return failed(`the card is larger than ${megabytes(MAX_CARD_BYTES)}`);
      return { ...parse(target, body), ...(redirects.length > 0 ? { redirects } : {}) };
    }
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
    const why =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${timeoutMs / 1000} s`
        : cause || String(error);
    return failed(`could not fetch the card: ${why}`);
  }
}

async function readPath(path: string): Promise<CardInput[]> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    return [{ source: path, error: 'no such file or directory' }];
  }
  if (info.isDirectory()) {
    const entries = await readdir(path, { withFileTypes: true });
    const nested = await Promise.all(
      entries
        .filter(
          (entry) =>
            entry.isDirectory() ||
            (entry.isFile() && entry.name.endsWith('.json') && !entry.name.endsWith('.warnings.json')),
        )
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((entry) => readPath(join(path, entry.name))),
    );
    const found = nested.flat();
    return found.length > 0 ? found : [{ source: path, error: 'the directory holds no .json files' }];
  }
  if (info.size > MAX_CARD_BYTES) {
    return [
      {
        source: path,
        error: `the file is ${megabytes(info.size)}; a card is a small JSON document and the limit is ${megabytes(MAX_CARD_BYTES)}`,
      },
    ];
  }
  return [parse(path, await readFile(path, 'utf8'))];
}

/**
 * Reads the cards named by a file path, a directory (every .json inside) or an http(s) URL. A URL
 * that redirects is an error naming where it leads, unless `followRedirects` (then the card says
 * which redirects it followed).
 */
export async function readCards(
  target: string,
  { a2aVersion = '1.0', timeoutMs = 10_000, followRedirects = false } = {},
): Promise<CardInput[]> {
  return /^https?:\/\//i.test(target)
    ? [await readUrl(target, { a2aVersion, timeoutMs, followRedirects })]
    : readPath(target);
}
