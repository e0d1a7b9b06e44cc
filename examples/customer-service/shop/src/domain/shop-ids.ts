import { randomUUID } from 'node:crypto';

/** A new id with a readable kind prefix: `RF-3F2A9C1D` for a refund. */
export function newRecordId(kind: 'RF' | 'RS' | 'EM'): string {
  return `${kind}-${randomUUID().replaceAll('-', '').slice(0, 8).toUpperCase()}`;
}
