import { inert } from '@switchboard/protocol';
import type { ServiceLogLine } from './service-process.ts';

const LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
const SHOWN = [
  'url',
  'queue',
  'model',
  'peers',
  'tools',
  'missing',
  'approvalId',
  'decision',
  'operator',
  'taskId',
];

/**
 * A service's log line as a person reads it: `[orders    ] info  orders ready  url=… queue=…`.
 * The JSON line's strings are decoded, so what a caller put in them (a newline and a forged line, an
 * escape sequence) would act again: each part is {@link inert}, and the line stays one line.
 */
export function formatLogLine({ service, line, record }: ServiceLogLine, width = 10): string {
  const prefix = `[${inert(service).padEnd(width)}]`;
  if (!record) return `${prefix} ${inert(line)}`;
  const level = LEVELS[Number(record.level)] ?? String(record.level ?? '');
  const fields = SHOWN.filter((key) => record[key] !== undefined).map((key) => {
    const value = record[key];
    return `${key}=${Array.isArray(value) ? value.join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value)}`;
  });
  const err = record.err as { message?: string } | undefined;
  if (err?.message) fields.push(`error=${err.message}`);
  return inert(
    `${prefix} ${level.padEnd(5)} ${String(record.msg ?? '')}${fields.length ? `  ${fields.join(' ')}` : ''}`,
  );
}
