/**
 * A structured logger, pino-compatible (`logger.error({ err }, 'message')`). Raw errors, with their
 * stacks, go here and nowhere else: never to a model, never to a span.
 */
export interface Logger {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** A logger that writes warnings and errors to stderr as JSON lines; the default when none is given. */
export function stderrLogger(): Logger {
  const write = (level: string, fields: Record<string, unknown>, message: string) => {
    const err = fields.err;
    const line = {
      level,
      time: new Date().toISOString(),
      msg: message,
      ...fields,
      ...(err instanceof Error ? { err: { type: err.name, message: err.message, stack: err.stack } } : {}),
    };
    process.stderr.write(`${JSON.stringify(line)}\n`);
  };
  return {
    debug: () => {},
    info: () => {},
    warn: (fields, message) => write('warn', fields, message),
    error: (fields, message) => write('error', fields, message),
  };
}

/** A logger that drops everything. */
export function silentLogger(): Logger {
  const drop = () => {};
  return { debug: drop, info: drop, warn: drop, error: drop };
}
