import { createHash } from 'node:crypto';

/**
 * Whether a live task is copied to the shadow: the same answer for the same task id on every
 * replica (a hash of the id, not a coin), so a retried request is copied or not alike. `share` is
 * 0 to 1: 0 copies nothing, 1 everything.
 */
export function inShadowShare(taskId: string, share: number): boolean {
  if (share >= 1) return true;
  if (share <= 0) return false;
  const bucket = createHash('sha256').update(taskId).digest().readUInt32BE(0) / 0x1_0000_0000;
  return bucket < share;
}
