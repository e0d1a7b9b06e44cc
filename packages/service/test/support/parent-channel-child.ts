/**
 * A child that calls `exitWithParent`, for its tests: `node parent-channel-child.ts <done|hangs>`.
 * `done`: has no work left once it printed "started". `hangs`: keeps a timer running, and its drain
 * never ends (deadline DEADLINE_MS).
 */
import { exitWithParent } from '../../src/index.ts';

const mode = process.argv[2];
const hangs = mode === 'hangs';
exitWithParent({
  close: () => new Promise<void>(() => {}),
  deadlineMs: Number(process.env.DEADLINE_MS ?? 1_000),
  onError: (error) => process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`),
});
// A 'message' listener refs a channel that was not explicitly unreferenced.
process.on('message', () => {});
if (hangs) setInterval(() => {}, 60_000);
process.stdout.write('started\n');
