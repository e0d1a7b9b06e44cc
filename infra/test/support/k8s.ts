import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import { TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1/TriggerAuthentication';
import { generateServiceKey } from '@switchboard/identity';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { INFRA_DIR } from './paths.ts';
import { isRecord, parseYamlDocuments } from './yaml-files.ts';

/** A typed model of `kubernetes-models`: built from plain data, `validate()` throws with JSON paths. */
interface KubeModel {
  validate(): void;
}

/** The typed model for each kind the manifests use, by `apiVersion` and `kind`. */
const MODELS: Record<string, new (data: never) => KubeModel> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'batch/v1/Job': Job,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
  'keda.sh/v1alpha1/TriggerAuthentication': TriggerAuthentication,
};

/** A manifest as plain data, the few fields every object has typed. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** One manifest and the file it came from. */
export interface ManifestEntry {
  file: string;
  manifest: Manifest;
}

/** The Kubernetes manifests directory. */
export const K8S_DIR = join(INFRA_DIR, 'k8s');

/** Every object of every `*.yaml` in `infra/k8s` except the kustomization. */
export function loadManifests(): ManifestEntry[] {
  return readdirSync(K8S_DIR)
    .filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml')
    .sort()
    .flatMap((file) =>
      parseYamlDocuments(readFileSync(join(K8S_DIR, file), 'utf8'), file).map((manifest) => ({
        file,
        manifest: manifest as Manifest,
      })),
    );
}

/**
 * Builds the typed object for a manifest and validates it against its schema; throws naming the
 * object and every failing JSON path (e.g. `data/spec/minReplicaCount must be integer`).
 */
export function validateManifest(manifest: Manifest): void {
  const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
  if (!Model) throw new Error(`${manifest.apiVersion} ${manifest.kind} has no model in this check`);
  try {
    new Model(manifest as never).validate();
  } catch (error) {
    throw new Error(
      `${manifest.kind} ${manifest.metadata?.name}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Objects of one kind. */
export function ofKind(entries: readonly ManifestEntry[], kind: string): Manifest[] {
  return entries.map((entry) => entry.manifest).filter((manifest) => manifest.kind === kind);
}

/** A nested field of plain data, by path, or undefined. */
export function field(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (Array.isArray(current) && typeof key === 'number') current = current[key];
    else if (isRecord(current) && typeof key === 'string') current = current[key];
    else return undefined;
  }
  return current;
}

/** A pod template's containers. */
export function containersOf(workload: Manifest): Record<string, unknown>[] {
  const containers = field(workload, 'spec', 'template', 'spec', 'containers');
  return Array.isArray(containers) ? containers.filter(isRecord) : [];
}

/** The pod template's labels. */
export function templateLabels(workload: Manifest): Record<string, string> {
  const labels = field(workload, 'spec', 'template', 'metadata', 'labels');
  return isRecord(labels) ? (labels as Record<string, string>) : {};
}

/** True when every label of the selector is on the labels (an empty selector matches nothing here). */
export function selects(selector: unknown, labels: Readonly<Record<string, string>>): boolean {
  if (!isRecord(selector) || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}

/** The data of a ConfigMap or Secret (`data` base64-decoded, `stringData` as is). */
export function dataOf(manifest: Manifest): Record<string, string> {
  const decoded = Object.entries(isRecord(manifest.data) ? manifest.data : {}).map(([key, value]) => [
    key,
    manifest.kind === 'Secret' ? Buffer.from(String(value), 'base64').toString('utf8') : String(value),
  ]);
  const plain = Object.entries(isRecord(manifest.stringData) ? manifest.stringData : {}).map(
    ([key, value]) => [key, String(value)],
  );
  return Object.fromEntries([...decoded, ...plain]);
}

/**
 * The environment a container starts with, as the kubelet builds it: each `envFrom` source in order
 * (a later one wins), then `env` (values, or keys of a Secret), expanding `$(VAR)` from what came
 * before. Field references (`status.podIP`) take `fieldValues`. `secretValue` may rewrite
 * Secret values (e.g. placeholders).
 */
export function containerEnv(
  container: Record<string, unknown>,
  entries: readonly ManifestEntry[],
  {
    fieldValues = {},
    secretValue = (_key: string, value: string) => value,
  }: {
    fieldValues?: Readonly<Record<string, string>>;
    secretValue?: (key: string, value: string) => string;
  } = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  const find = (kind: string, name: unknown) =>
    entries.map((entry) => entry.manifest).find((m) => m.kind === kind && m.metadata.name === name);
  for (const source of Array.isArray(container.envFrom) ? container.envFrom : []) {
    const configMap = find('ConfigMap', field(source, 'configMapRef', 'name'));
    const secret = find('Secret', field(source, 'secretRef', 'name'));
    if (configMap) Object.assign(env, dataOf(configMap));
    if (secret) {
      for (const [key, value] of Object.entries(dataOf(secret))) env[key] = secretValue(key, value);
    }
  }
  for (const variable of Array.isArray(container.env) ? container.env : []) {
    const name = String(field(variable, 'name'));
    const fieldPath = field(variable, 'valueFrom', 'fieldRef', 'fieldPath');
    const secretKey = field(variable, 'valueFrom', 'secretKeyRef');
    if (typeof fieldPath === 'string') env[name] = fieldValues[fieldPath] ?? '';
    else if (secretKey !== undefined) {
      const secret = find('Secret', field(secretKey, 'name'));
      const key = String(field(secretKey, 'key'));
      const value = secret ? dataOf(secret)[key] : undefined;
      if (value !== undefined) env[name] = secretValue(key, value);
    } else
      env[name] = String(field(variable, 'value') ?? '').replace(
        /\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g,
        (all, ref) => env[ref] ?? all,
      );
  }
  return env;
}

/**
 * What a user would trip over when applying the manifests together: references to ConfigMaps,
 * Secrets or Deployments that do not exist, selectors that match no pods (or the wrong ones), and
 * Service ports that name no container port. Empty when all is consistent.
 */
export function crossReferenceProblems(entries: readonly ManifestEntry[]): string[] {
  const problems: string[] = [];
  const names = (kind: string) => new Set(ofKind(entries, kind).map((m) => m.metadata.name));
  const configMaps = names('ConfigMap');
  const secrets = names('Secret');
  const secretHasKey = (name: unknown, key: unknown) => {
    const secret = ofKind(entries, 'Secret').find((m) => m.metadata.name === name);
    return secret !== undefined && String(key) in dataOf(secret);
  };
  const deployments = ofKind(entries, 'Deployment');
  const workloads = [...deployments, ...ofKind(entries, 'Job')];
  for (const workload of workloads) {
    for (const container of containersOf(workload)) {
      const sources = Array.isArray(container.envFrom) ? container.envFrom : [];
      for (const source of sources) {
        const configMap = field(source, 'configMapRef', 'name');
        const secret = field(source, 'secretRef', 'name');
        if (configMap !== undefined && !configMaps.has(String(configMap)))
          problems.push(
            `${workload.kind} ${workload.metadata.name}: configMapRef "${configMap}" does not exist`,
          );
        if (secret !== undefined && !secrets.has(String(secret)))
          problems.push(`${workload.kind} ${workload.metadata.name}: secretRef "${secret}" does not exist`);
      }
      for (const variable of Array.isArray(container.env) ? container.env : []) {
        const ref = field(variable, 'valueFrom', 'secretKeyRef');
        if (ref !== undefined && !secretHasKey(field(ref, 'name'), field(ref, 'key')))
          problems.push(
            `${workload.kind} ${workload.metadata.name}: secretKeyRef ${String(field(ref, 'name'))}/${String(field(ref, 'key'))} does not exist`,
          );
      }
    }
    const volumes = field(workload, 'spec', 'template', 'spec', 'volumes');
    for (const volume of Array.isArray(volumes) ? volumes : []) {
      const configMap = field(volume, 'configMap', 'name');
      if (configMap !== undefined && !configMaps.has(String(configMap)))
        problems.push(
          `${workload.kind} ${workload.metadata.name}: volume ${String(field(volume, 'name'))}'s configMap "${configMap}" does not exist`,
        );
    }
    if (
      !selects(field(workload, 'spec', 'selector', 'matchLabels'), templateLabels(workload)) &&
      workload.kind === 'Deployment'
    )
      problems.push(`Deployment ${workload.metadata.name}: its selector does not match its own pod labels`);
  }
  for (const service of ofKind(entries, 'Service')) {
    const matched = deployments.filter((d) => selects(field(service, 'spec', 'selector'), templateLabels(d)));
    if (matched.length !== 1) {
      problems.push(
        `Service ${service.metadata.name}: its selector matches ${matched.length} Deployments (${matched.map((d) => d.metadata.name).join(', ') || 'none'}), not one`,
      );
      continue;
    }
    const [target] = matched;
    const portNames = new Set(
      target
        ? containersOf(target).flatMap((c) =>
            (Array.isArray(c.ports) ? c.ports : []).flatMap((p) => [
              field(p, 'name'),
              field(p, 'containerPort'),
            ]),
          )
        : [],
    );
    for (const port of Array.isArray(field(service, 'spec', 'ports'))
      ? (field(service, 'spec', 'ports') as unknown[])
      : []) {
      const targetPort = field(port, 'targetPort') ?? field(port, 'port');
      if (!portNames.has(targetPort as string | number))
        problems.push(
          `Service ${service.metadata.name}: targetPort ${String(targetPort)} is no port of ${target?.metadata.name}`,
        );
    }
  }
  for (const budget of ofKind(entries, 'PodDisruptionBudget')) {
    const matched = deployments.filter((d) =>
      selects(field(budget, 'spec', 'selector', 'matchLabels'), templateLabels(d)),
    );
    if (matched.length !== 1)
      problems.push(
        `PodDisruptionBudget ${budget.metadata.name}: its selector matches ${matched.length} Deployments, not one`,
      );
  }
  const deploymentNames = new Set(deployments.map((d) => d.metadata.name));
  for (const scaled of ofKind(entries, 'ScaledObject')) {
    const kind = field(scaled, 'spec', 'scaleTargetRef', 'kind') ?? 'Deployment';
    const name = String(field(scaled, 'spec', 'scaleTargetRef', 'name'));
    if (kind !== 'Deployment' || !deploymentNames.has(name))
      problems.push(
        `ScaledObject ${scaled.metadata.name}: scaleTargetRef ${String(kind)} "${name}" does not exist`,
      );
    const triggerAuths = names('TriggerAuthentication');
    for (const trigger of (field(scaled, 'spec', 'triggers') as unknown[] | undefined) ?? []) {
      const auth = field(trigger, 'authenticationRef', 'name');
      if (auth !== undefined && !triggerAuths.has(String(auth)))
        problems.push(
          `ScaledObject ${scaled.metadata.name}: trigger ${String(field(trigger, 'name'))}'s authenticationRef "${String(auth)}" does not exist`,
        );
    }
  }
  for (const auth of ofKind(entries, 'TriggerAuthentication')) {
    for (const ref of (field(auth, 'spec', 'secretTargetRef') as unknown[] | undefined) ?? []) {
      if (!secretHasKey(field(ref, 'name'), field(ref, 'key')))
        problems.push(
          `TriggerAuthentication ${auth.metadata.name}: secretTargetRef ${String(field(ref, 'name'))}/${String(field(ref, 'key'))} does not exist`,
        );
    }
  }
  return problems;
}

/**
 * What an operator puts in place of the Secrets' `REPLACE_ME` placeholders, for the checks that need
 * real values: a Redis with a password (one a URL must percent-encode) and valid tokens.
 */
export const FILLED_SECRETS = {
  REDIS_URL: 'redis://:p%40ss%2Fw0rd@redis.switchboard.svc.cluster.local:6379',
  REDIS_PASSWORD: 'p@ss/w0rd',
  SWITCHBOARD_USER_TOKENS: 'tok-91c2e8f0a7b3d4c5e6=someone',
  SWITCHBOARD_OPERATOR_TOKENS: 'ops-4d8b2f6a0c9e1d7b3a5f=olivia',
} as const;

/** The services' signing keys an operator made (`switchboard keys generate`), for the filled-in checks. */
export const FILLED_KEYS = Object.fromEntries(
  ['supervisor', 'orders', 'inventory', 'comms'].map((service) => [
    service,
    generateServiceKey({ service, label: 'k8s-test' }),
  ]),
);

/** Each service's private key, as the `switchboard-service-keys` Secret holds it (`ORDERS_SERVICE_KEY`). */
const filledKeys = Object.fromEntries(
  Object.entries(FILLED_KEYS).map(([service, { privateKey }]) => [
    `${service.toUpperCase()}_SERVICE_KEY`,
    JSON.stringify(privateKey),
  ]),
);

/** The trusted set an operator lists in the `switchboard-trusted-keys` ConfigMap: every public key. */
export const FILLED_TRUSTED_KEYS = JSON.stringify({
  keys: Object.values(FILLED_KEYS).map(({ publicKey }) => publicKey),
});

const filled: Readonly<Record<string, string | undefined>> = { ...FILLED_SECRETS, ...filledKeys };

/** A `secretValue` for {@link containerEnv}: the Secrets as filled in ({@link FILLED_SECRETS}, the keys). */
export const filledIn = (key: string, value: string): string =>
  value === 'REPLACE_ME' ? (filled[key] ?? value) : value;

/** A `configValue` for {@link mountConfigFiles}: the trusted keys ConfigMap as filled in. */
export const filledInConfig = (key: string, value: string): string =>
  value === 'REPLACE_ME' && key === 'trusted-keys.json' ? FILLED_TRUSTED_KEYS : value;

/**
 * Writes the files a workload's ConfigMap volumes put in its main container, each at `root` + its
 * mount path (`configValue` may rewrite values, e.g. placeholders), and returns `env` with every
 * `file:<path>` setting that points into such a mount pointed at the written copy: what the
 * container would read there. A setting that points at no mounted file is left as it is.
 */
export function mountConfigFiles(
  workload: Manifest,
  entries: readonly ManifestEntry[],
  env: Readonly<Record<string, string>>,
  root: string,
  configValue: (key: string, value: string) => string = (_key, value) => value,
): Record<string, string> {
  const [container] = containersOf(workload);
  const volumes = field(workload, 'spec', 'template', 'spec', 'volumes');
  const written = new Map<string, string>();
  for (const mount of Array.isArray(container?.volumeMounts) ? container.volumeMounts : []) {
    const volume = (Array.isArray(volumes) ? volumes : []).find(
      (v) => field(v, 'name') === field(mount, 'name'),
    );
    const configMapName = field(volume, 'configMap', 'name');
    const configMap = entries
      .map((entry) => entry.manifest)
      .find((m) => m.kind === 'ConfigMap' && m.metadata.name === configMapName);
    if (!configMap) continue;
    const mountPath = String(field(mount, 'mountPath'));
    mkdirSync(join(root, mountPath), { recursive: true });
    for (const [key, value] of Object.entries(dataOf(configMap))) {
      const path = join(root, mountPath, key);
      writeFileSync(path, configValue(key, value));
      written.set(`${mountPath}/${key}`, path);
    }
  }
  return Object.fromEntries(
    Object.entries(env).map(([name, value]) => {
      const copy = value.startsWith('file:') ? written.get(value.slice('file:'.length)) : undefined;
      return [name, copy ? `file:${copy}` : value];
    }),
  );
}

/** The names of the triggers a KEDA `scalingModifiers.formula` uses (identifiers of the expression). */
export function formulaTerms(formula: string): string[] {
  return [...formula.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)].map((match) => match[0]);
}
