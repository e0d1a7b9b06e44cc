/**
 * Where a CPU profile sample's time goes, by concern: one ordered table of rules over the frames of
 * the sample's stack (V8 `callFrame`s: function name and script URL). Extend it by adding a row.
 *
 * Walking from the leaf up the stack, the first frame that a rule matches decides, and at each frame
 * the rules are tried in table order. A rule matches a frame when its `fn` and `url` (those given)
 * match it and, with `under`, when that frame or one of its callers matches `under`. So a rule with
 * `under` alone claims everything its anchor calls (task persistence owns the JSON and the ioredis
 * calls of a task save) ahead of the rules below it, and `{ url: ioredis, under: bullmq }` gives
 * BullMQ the Redis calls it makes. Samples that no rule takes go to {@link OTHER}; idle samples
 * ({@link isIdle}) are not busy time and are not classified.
 */

/** The part of a V8 profile node's call frame the rules read. */
export interface Frame {
  functionName: string;
  url: string;
}

/** A test of one frame: every regex given must match. */
export interface FrameTest {
  /** Tests the function name (e.g. `/^_processEvents$/`). */
  fn?: RegExp;
  /** Tests the script URL (`file:///…/node_modules/…`, `node:internal/…`, empty for V8's own). */
  url?: RegExp;
}

/** One row of the table (see the file's comment). */
export interface ConcernRule extends FrameTest {
  concern: string;
  /** The frame, or one of its callers, must match this too. */
  under?: FrameTest;
}

/** A package's files: `…/node_modules/<name>/` (pnpm's store paths end the same way). */
const pkg = (...names: string[]) => new RegExp(`/node_modules/(${names.join('|')})/`);
const SDK = pkg('@a2a-js/sdk');
const IOREDIS = pkg('ioredis', 'redis-parser', 'redis-errors', 'cluster-key-slot', 'standard-as-callback');
const OUR = (files: string) => new RegExp(`/packages/${files}`);

/** The concerns, in the order they are tried at each frame (see the file's comment). */
export const CONCERN_RULES: readonly ConcernRule[] = [
  { concern: 'garbage collection', fn: /^\(garbage collector\)$/ },
  {
    concern: 'task persistence',
    under: {
      url: OUR(
        'host/src/(tasks/(redis-task-store|stored-task|task-event-log|task-list-window)|runs/redis-task-ledger)\\.ts$',
      ),
    },
  },
  {
    concern: 'task persistence',
    under: {
      url: SDK,
      fn: /^(processEvent|processTaskEventLocked|loadPersistedTask|applyStatusUpdate|applyArtifactUpdate)$/,
    },
  },
  {
    concern: 'run state persistence',
    under: { url: OUR('host/src/runs/(redis-run-state-store|redis-intent-store)\\.ts$') },
  },
  { concern: 'SDK event processing', under: { url: SDK, fn: /^_processEvents$/ } },
  { concern: 'tool JSON schemas', under: { fn: /^toJSONSchema$/ } },
  { concern: 'model client', under: { url: pkg('openai') } },
  { concern: 'model client', under: { url: OUR('openai/src/') } },
  { concern: 'model client', url: /undici/ },
  { concern: 'service auth (JWT)', under: { url: pkg('jose') } },
  { concern: 'service auth (JWT)', url: OUR('identity/src/') },
  { concern: 'zod validation', url: pkg('zod') },
  { concern: 'OpenTelemetry', url: pkg('@opentelemetry/[^/]+') },
  { concern: 'BullMQ', url: pkg('bullmq') },
  { concern: 'BullMQ', url: IOREDIS, under: { url: pkg('bullmq') } },
  { concern: 'ioredis', url: IOREDIS },
  {
    concern: 'logging (pino)',
    url: pkg('pino', 'pino-[^/]+', '@pinojs/[^/]+', 'sonic-boom', 'thread-stream'),
  },
  {
    concern: 'HTTP server (express)',
    url: pkg('express', 'router', 'body-parser', 'raw-body', 'finalhandler', 'send'),
  },
  { concern: 'A2A SDK other', url: SDK },
  { concern: 'Switchboard agent runtime', url: OUR('agent/') },
  { concern: 'Switchboard queue transport', url: OUR('a2a-bullmq/') },
  { concern: 'Switchboard other', url: /\/(packages|apps|examples)\// },
  { concern: 'JSON', fn: /^(JSON\.)?(parse|stringify)$/, url: /^$/ },
];

/** Where a sample goes that no rule takes: Node's own code, the event loop, other packages. */
export const OTHER = 'Node internals/other';

/** Samples that are not busy time: V8 idle, and time outside JavaScript (`(program)`). */
export function isIdle(frame: Frame): boolean {
  return frame.functionName === '(idle)' || frame.functionName === '(program)';
}

const passes = (test: FrameTest, frame: Frame) =>
  (test.fn === undefined || test.fn.test(frame.functionName)) &&
  (test.url === undefined || test.url.test(frame.url));

/**
 * The concern of one sample, from its stack, leaf first (see the file's comment for the order).
 *
 * @example
 * concernOf([{ functionName: 'parse', url: '' }, { functionName: 'get', url: 'file:///…/packages/host/src/tasks/redis-task-store.ts' }]);
 * // 'task persistence'
 */
export function concernOf(stack: readonly Frame[], rules: readonly ConcernRule[] = CONCERN_RULES): string {
  // For each rule with `under`, the outermost frame that matches it: frames up to there are under it.
  const reach = rules.map((rule) => {
    if (!rule.under) return stack.length;
    for (let i = stack.length - 1; i >= 0; i--) {
      const frame = stack[i];
      if (frame && passes(rule.under, frame)) return i;
    }
    return -1;
  });
  for (const [i, frame] of stack.entries()) {
    const rule = rules.find((candidate, r) => i <= (reach[r] ?? -1) && passes(candidate, frame));
    if (rule) return rule.concern;
  }
  return OTHER;
}

/** Every concern a sample can go to, in table order, {@link OTHER} last. */
export const CONCERNS: readonly string[] = [
  ...new Set([...CONCERN_RULES.map((rule) => rule.concern), OTHER]),
];
