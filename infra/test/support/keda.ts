import { dataOf, field, type ManifestEntry } from './k8s.ts';

/** Where, and as whom, a KEDA `redis` trigger connects; undefined where nothing gives a value. */
export interface RedisTriggerConnection {
  address: string | undefined;
  username: string | undefined;
  password: string | undefined;
}

/** A trigger of a ScaledObject, as far as these checks read it. */
export interface Trigger {
  type: string;
  name?: string;
  metadata: Record<string, string>;
  authenticationRef?: { name: string; kind?: string };
}

/**
 * The parameters a trigger's TriggerAuthentication gives KEDA: `secretTargetRef` entries read from
 * the Secrets (through `secretValue`, as {@link containerEnv} does), `env` entries from the
 * container's environment.
 */
function authParams(
  trigger: Trigger,
  containerEnv: Readonly<Record<string, string>>,
  entries: readonly ManifestEntry[],
  secretValue: (key: string, value: string) => string,
): Record<string, string> {
  const name = trigger.authenticationRef?.name;
  if (name === undefined) return {};
  const auth = entries
    .map((entry) => entry.manifest)
    .find(
      (m) =>
        m.kind === (trigger.authenticationRef?.kind ?? 'TriggerAuthentication') && m.metadata.name === name,
    );
  const params: Record<string, string> = {};
  for (const ref of (field(auth, 'spec', 'secretTargetRef') as unknown[] | undefined) ?? []) {
    const secret = entries
      .map((entry) => entry.manifest)
      .find((m) => m.kind === 'Secret' && m.metadata.name === field(ref, 'name'));
    const key = String(field(ref, 'key'));
    const value = secret ? dataOf(secret)[key] : undefined;
    if (value !== undefined) params[String(field(ref, 'parameter'))] = secretValue(key, value);
  }
  for (const ref of (field(auth, 'spec', 'env') as unknown[] | undefined) ?? []) {
    const value = containerEnv[String(field(ref, 'name'))];
    if (value !== undefined) params[String(field(ref, 'parameter'))] = value;
  }
  return params;
}

/**
 * Resolves a `redis` trigger's address, username and password as KEDA 2.x's redis scaler does: each
 * from the trigger's `metadata` (`address`, `username`, `password`), from the scale target
 * container's variable named by `<parameter>FromEnv`, or from the trigger's TriggerAuthentication.
 */
export function redisTriggerConnection(
  trigger: Trigger,
  containerEnv: Readonly<Record<string, string>>,
  entries: readonly ManifestEntry[],
  {
    secretValue = (_key: string, value: string) => value,
  }: { secretValue?: (key: string, value: string) => string } = {},
): RedisTriggerConnection {
  const auth = authParams(trigger, containerEnv, entries, secretValue);
  const resolve = (parameter: string): string | undefined => {
    const fromEnv = trigger.metadata[`${parameter}FromEnv`];
    return (
      trigger.metadata[parameter] ??
      (fromEnv === undefined ? undefined : containerEnv[fromEnv]) ??
      auth[parameter]
    );
  };
  return { address: resolve('address'), username: resolve('username'), password: resolve('password') };
}
