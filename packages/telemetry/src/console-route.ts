import { formatWithOptions } from 'node:util';
import type { Logger } from '@switchboard/agent';

/** The console methods routed, and the level each is written at. */
const LEVELS = {
  debug: 'debug',
  trace: 'debug',
  log: 'info',
  info: 'info',
  warn: 'warn',
  error: 'error',
} as const satisfies Record<string, keyof Logger>;

type ConsoleMethod = keyof typeof LEVELS;

/** Options of {@link routeConsole}. */
export interface RouteConsoleOptions {
  /** The structured logger every console line goes to instead (e.g. `createLogger(...)`). */
  logger: Logger;
  /**
   * Drops a console call whose arguments were logged already (default: none are dropped), e.g.
   * `(args) => args.some(wasLoggedByHost)` for what the A2A SDK prints again of a host's errors.
   */
  drop?: (args: readonly unknown[]) => boolean;
  /** The console to route (default the process's `console`). */
  target?: Console;
}

/**
 * Routes `console.log`, `info`, `warn`, `error`, `debug` and `trace` of this process to the
 * structured logger, one JSON line per call: the text of the arguments as `msg` (escaped as every
 * JSON string is, so a newline or escape sequence a caller put in an id never starts a line of its
 * own), the first `Error` among them as `err`, and `source: "console"`. Libraries that print with
 * `console` (the A2A SDK's server handlers) then write what the service's own code does. A service's
 * composition root calls it once; the returned function puts the console back.
 *
 * @example
 * const restore = routeConsole({ logger });
 * console.error('Pre-stream error for request 1:', error); // one JSON line, error level
 * restore();
 */
export function routeConsole({
  logger,
  drop = () => false,
  target = console,
}: RouteConsoleOptions): () => void {
  const saved = new Map<ConsoleMethod, Console[ConsoleMethod]>();
  for (const method of Object.keys(LEVELS) as ConsoleMethod[]) {
    saved.set(method, target[method]);
    target[method] = (...args: unknown[]) => {
      if (drop(args)) return;
      const err = args.find((arg) => arg instanceof Error);
      const text = formatWithOptions(
        { colors: false, breakLength: Number.POSITIVE_INFINITY, depth: 4 },
        ...args.filter((arg) => arg !== err),
      );
      logger[LEVELS[method]]({ source: 'console', ...(err ? { err } : {}) }, text.trim());
    };
  }
  return () => {
    for (const [method, original] of saved) target[method] = original;
  };
}
