import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `infra/`, with a trailing slash. */
export const INFRA_DIR = fileURLToPath(new URL('../../', import.meta.url));
/** The repository root, with a trailing slash. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The services the one image runs, as `examples/customer-service/<service>`. */
export const SERVICES = ['supervisor', 'orders', 'inventory', 'comms'] as const;
/** The folder of a service the image runs, from the repository root. */
export const serviceDir = (service: string): string => `examples/customer-service/${service}`;

/** The services that consume a queue and scale on it. */
export const WORKERS = ['orders', 'inventory', 'comms'] as const;

/** A file of the repository as text. */
export function readRepoFile(path: string): string {
  return readFileSync(new URL(path, `file://${REPO_ROOT}`), 'utf8');
}

/** Milliseconds of a Compose duration such as `100s`, `1m30s` or `500ms`. */
export function durationMs(text: string): number {
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|us|ns|s|m|h)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text) {
    throw new Error(`"${text}" is not a duration like 100s or 1m30s`);
  }
  const unit: Record<string, number> = { ns: 1e-6, us: 1e-3, ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
  return parts.reduce((sum, [, amount, suffix]) => sum + Number(amount) * (unit[suffix ?? 's'] ?? 0), 0);
}
