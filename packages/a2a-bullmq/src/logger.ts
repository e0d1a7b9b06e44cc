/**
 * What the binding logs through: pino's call shape (`fields`, then the message), so a pino logger or
 * `@switchboard/agent`'s `Logger` fits as is. The binding logs warnings and errors only.
 */
export interface QueueLogger {
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
  info?(fields: Record<string, unknown>, message: string): void;
  debug?(fields: Record<string, unknown>, message: string): void;
}

/**
 * The default logger: warnings and errors to stderr, one JSON line each. The same lines as
 * `@switchboard/agent`'s default logger, written again on purpose: the binding imports nothing of
 * ours but the attribute names, so it can be used by any A2A server.
 */
// jscpd:ignore-start
export function stderrLogger(): QueueLogger {
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
    warn: (fields, message) => write('warn', fields, message),
    error: (fields, message) => write('error', fields, message),
  };
}
// jscpd:ignore-end
