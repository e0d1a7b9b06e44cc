import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@switchboard/config';
import { loadServiceConfig, loadSupervisorConfig } from '@switchboard/service';
import { afterAll, describe, expect, it } from 'vitest';
import {
  containerEnv,
  containersOf,
  crossReferenceProblems,
  FILLED_KEYS,
  FILLED_SECRETS,
  field,
  filledIn,
  filledInConfig,
  K8S_DIR,
  loadManifests,
  type Manifest,
  mountConfigFiles,
  ofKind,
  validateManifest,
} from './support/k8s.ts';
import { SERVICES, WORKERS } from './support/paths.ts';
import { isRecord, parseYamlDocuments } from './support/yaml-files.ts';

const entries = loadManifests();
const deployments = ofKind(entries, 'Deployment');
const deployment = (name: string): Manifest => {
  const found = deployments.find((d) => d.metadata.name === name);
  if (!found) throw new Error(`no Deployment "${name}" in infra/k8s`);
  return found;
};
const mainContainer = (workload: Manifest): Record<string, unknown> => {
  const [container] = containersOf(workload);
  if (!container) throw new Error(`${workload.metadata.name} has no container`);
  return container;
};
const [kustomization = {}] = parseYamlDocuments(
  readFileSync(join(K8S_DIR, 'kustomization.yaml'), 'utf8'),
  'kustomization.yaml',
) as { resources?: string[]; namespace?: string; images?: { name: string }[] }[];
const env = (name: string, secretValue?: (key: string, value: string) => string) =>
  containerEnv(mainContainer(deployment(name)), entries, {
    fieldValues: { 'status.podIP': '10.1.2.3' },
    ...(secretValue ? { secretValue } : {}),
  });
const loadConfig = (name: string, values: Record<string, string>) =>
  name === 'supervisor'
    ? loadSupervisorConfig(values)
    : loadServiceConfig({ env: values, service: name, defaultPort: 4101 });
/** Where the checks write the files the pods' ConfigMap volumes would hold. */
const mounts = mkdtempSync(join(tmpdir(), 'sb-k8s-mounts-'));
afterAll(() => rmSync(mounts, { recursive: true, force: true }));
/** A service's environment with its mounted files in place, as filled in (or as committed). */
const podEnv = (name: string, filled = true) =>
  mountConfigFiles(
    deployment(name),
    entries,
    env(name, filled ? filledIn : undefined),
    join(mounts, `${name}-${filled ? 'filled' : 'placeholders'}`),
    filled ? filledInConfig : undefined,
  );

describe('infra/k8s manifests', () => {
  it('are each valid against their Kubernetes or KEDA schema', () => {
    expect(entries.length).toBeGreaterThan(10);
    for (const { file, manifest } of entries) expect(() => validateManifest(manifest), file).not.toThrow();
  });

  it('have a schema check that refuses broken copies, naming the JSON paths', () => {
    const badDeployment = structuredClone(deployment('orders'));
    const container = mainContainer(badDeployment);
    container.ports = [{ name: 'http', containerPort: 'http' }];
    expect(() => validateManifest(badDeployment)).toThrow(
      'data/spec/template/spec/containers/0/ports/0/containerPort must be integer',
    );
    const [scaled] = ofKind(entries, 'ScaledObject');
    const badScaled = structuredClone(scaled) as Manifest & { spec: Record<string, unknown> };
    badScaled.spec.minReplicaCount = 'two';
    badScaled.spec.scaleTargetRef = {};
    expect(() => validateManifest(badScaled)).toThrow(/data\/spec\/minReplicaCount must be integer/);
    expect(() => validateManifest(badScaled)).toThrow(
      'data/spec/scaleTargetRef must have required property name',
    );
  });

  it('reference only ConfigMaps, Secrets and Deployments that exist, with selectors that match', () => {
    expect(crossReferenceProblems(entries)).toEqual([]);
  });

  it('have a cross-reference check that finds a dangling name or a selector that matches nothing', () => {
    const broken = structuredClone(entries);
    const orders = broken.find(
      (e) => e.manifest.kind === 'Deployment' && e.manifest.metadata.name === 'orders',
    );
    const service = broken.find((e) => e.manifest.kind === 'Service');
    const scaled = broken.find((e) => e.manifest.kind === 'ScaledObject');
    const budget = broken.find((e) => e.manifest.kind === 'PodDisruptionBudget');
    const seed = broken.find((e) => e.manifest.kind === 'Job');
    const auth = broken.find((e) => e.manifest.kind === 'TriggerAuthentication');
    if (!orders || !service || !scaled || !budget || !seed || !auth)
      throw new Error('expected objects are missing');
    mainContainer(orders.manifest).envFrom = [{ configMapRef: { name: 'switchboard-conf' } }];
    mainContainer(seed.manifest).env = [
      { name: 'REDIS_URL', valueFrom: { secretKeyRef: { name: 'switchboard-secrets', key: 'REDIS' } } },
    ];
    const [trigger] = field(scaled.manifest, 'spec', 'triggers') as { authenticationRef: { name: string } }[];
    if (trigger) trigger.authenticationRef.name = 'redis';
    const [secretRef] = field(auth.manifest, 'spec', 'secretTargetRef') as { key: string }[];
    if (secretRef) secretRef.key = 'REDIS_PASS';
    (service.manifest.spec as Record<string, unknown>).selector = {
      'app.kubernetes.io/component': 'frontend',
    };
    (scaled.manifest.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name = 'order';
    (budget.manifest.spec as { selector: unknown }).selector = { matchLabels: { app: 'nothing' } };
    const problems = crossReferenceProblems(broken);
    expect(problems).toEqual(
      expect.arrayContaining([
        'Deployment orders: configMapRef "switchboard-conf" does not exist',
        'Service supervisor: its selector matches 0 Deployments (none), not one',
        `ScaledObject ${scaled.manifest.metadata.name}: scaleTargetRef Deployment "order" does not exist`,
        `PodDisruptionBudget ${budget.manifest.metadata.name}: its selector matches 0 Deployments, not one`,
        'Job seed: secretKeyRef switchboard-secrets/REDIS does not exist',
        `ScaledObject ${scaled.manifest.metadata.name}: trigger waiting's authenticationRef "redis" does not exist`,
        `TriggerAuthentication ${auth.manifest.metadata.name}: secretTargetRef switchboard-secrets/REDIS_PASS does not exist`,
      ]),
    );
  });

  it('are all applied by the kustomization, into one namespace, with one image to retarget', () => {
    const files = readdirSync(K8S_DIR).filter(
      (file) => file.endsWith('.yaml') && file !== 'kustomization.yaml',
    );
    expect([...(kustomization.resources ?? [])].sort()).toEqual(files.sort());
    const namespace = String(kustomization.namespace);
    expect(ofKind(entries, 'Namespace').map((m) => m.metadata.name)).toEqual([namespace]);
    for (const { manifest } of entries.filter((e) => e.manifest.kind !== 'Namespace'))
      expect(manifest.metadata.namespace, `${manifest.kind} ${manifest.metadata.name}`).toBe(namespace);
    const [image] = kustomization.images ?? [];
    for (const workload of [...deployments, ...ofKind(entries, 'Job')])
      expect(String(mainContainer(workload).image).split(':')[0]).toBe(image?.name);
  });

  it('run one Deployment per service, each told which service it is', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual([...SERVICES].sort());
    for (const name of SERVICES) expect(env(name).SWITCHBOARD_SERVICE).toBe(name);
  });

  it('give each service a configuration its own loader accepts once the Secret is filled in', () => {
    for (const name of SERVICES) {
      const config = loadConfig(name, podEnv(name));
      expect(config.redisUrl, `${name} reads the Redis URL, with its password, from the Secret`).toBe(
        FILLED_SECRETS.REDIS_URL,
      );
      expect(config.otlpEndpoint, `${name} sends spans over OTLP, not to a file`).toMatch(/^http/);
      expect(config.host).toBe('0.0.0.0');
      expect(config.port).toBe(8080);
    }
    expect(loadConfig('orders', podEnv('orders')).publicUrl).toBe('http://10.1.2.3:8080');
  });

  it('refuse to start with the placeholder Secret, naming the variables to fill in', () => {
    for (const name of SERVICES) {
      const attempt = () => loadConfig(name, podEnv(name, false));
      expect(attempt).toThrow(ConfigError);
      expect(attempt).toThrow(/REDIS_URL/);
      expect(attempt).toThrow(/SWITCHBOARD_SERVICE_KEY: is not JSON/);
      expect(attempt).toThrow(
        /SWITCHBOARD_TRUSTED_KEYS: names the file .*trusted-keys\.json, which is not readable JSON/,
      );
    }
    expect(() => loadConfig('supervisor', env('supervisor'))).toThrow(/SWITCHBOARD_USER_TOKENS/);
  });

  it('give the seed Job the Redis URL of the services, and no token', () => {
    const [seed] = ofKind(entries, 'Job');
    const seedEnv = containerEnv(mainContainer(seed as Manifest), entries, { secretValue: filledIn });
    expect(seedEnv.REDIS_URL).toBe(FILLED_SECRETS.REDIS_URL);
    expect(seedEnv.SWITCHBOARD_NAMESPACE).toBe(env('orders').SWITCHBOARD_NAMESPACE);
    expect(seedEnv.SWITCHBOARD_SERVICE_KEY).toBeUndefined();
  });

  it('give each service its own private key only, and all of them the public keys as a mounted ConfigMap', () => {
    for (const name of SERVICES) {
      const variables = mainContainer(deployment(name)).env as { name: string; valueFrom?: unknown }[];
      const key = variables.find((variable) => variable.name === 'SWITCHBOARD_SERVICE_KEY');
      expect(field(key, 'valueFrom', 'secretKeyRef'), name).toEqual({
        name: 'switchboard-service-keys',
        key: `${name.toUpperCase()}_SERVICE_KEY`,
      });
      const sources = mainContainer(deployment(name)).envFrom as unknown[];
      expect(sources.map((source) => field(source, 'secretRef', 'name'))).not.toContain(
        'switchboard-service-keys',
      );
      const config = loadConfig(name, podEnv(name));
      expect(config.serviceKey).toEqual(FILLED_KEYS[name]?.privateKey);
      expect(config.trustedKeys.kind, `${name} reads the keys from a file it sees change`).toBe('file');
    }
    const trusted = ofKind(entries, 'ConfigMap').find((m) => m.metadata.name === 'switchboard-trusted-keys');
    expect(trusted, 'the public keys are a ConfigMap, not a Secret').toBeDefined();
  });

  it('give the customer and operator tokens to the supervisor only', () => {
    for (const name of WORKERS) {
      expect(env(name).SWITCHBOARD_USER_TOKENS, name).toBeUndefined();
      expect(env(name).SWITCHBOARD_OPERATOR_TOKENS, name).toBeUndefined();
    }
    expect(env('supervisor').SWITCHBOARD_USER_TOKENS).toBeDefined();
  });

  it('probe readiness on /readyz and liveness on /healthz at the port the service listens on', () => {
    for (const name of SERVICES) {
      const container = mainContainer(deployment(name));
      const port = (container.ports as { name: string; containerPort: number }[]).find(
        (p) => p.name === 'http',
      );
      expect(port?.containerPort).toBe(Number(env(name).PORT));
      expect(field(container, 'readinessProbe', 'httpGet', 'path')).toBe('/readyz');
      expect(field(container, 'livenessProbe', 'httpGet', 'path')).toBe('/healthz');
      expect(field(container, 'readinessProbe', 'httpGet', 'port')).toBe('http');
      expect(field(container, 'livenessProbe', 'httpGet', 'port')).toBe('http');
    }
  });

  it('give a stopping pod longer than its drain, and the drain longer than the longest delegation', () => {
    for (const name of SERVICES) {
      const values = env(name);
      const drain = Number(values.SWITCHBOARD_DRAIN_MS);
      expect(drain).toBeGreaterThan(Number(values.SWITCHBOARD_HOP_TIMEOUT_MS));
      const preStop = field(mainContainer(deployment(name)), 'lifecycle', 'preStop', 'exec', 'command');
      const preStopMs = Array.isArray(preStop) && preStop[0] === 'sleep' ? Number(preStop[1]) * 1_000 : 0;
      const grace = Number(
        field(deployment(name), 'spec', 'template', 'spec', 'terminationGracePeriodSeconds'),
      );
      // preStop, then the HTTP close (5 s), then the drain, then flushing spans.
      expect(grace * 1_000, name).toBeGreaterThan(preStopMs + 5_000 + drain);
    }
  });

  it('meet the restricted Pod Security Standard, on a read-only root filesystem with /tmp writable', () => {
    for (const workload of [...deployments, ...ofKind(entries, 'Job')]) {
      const pod = field(workload, 'spec', 'template', 'spec');
      const container = mainContainer(workload);
      const name = workload.metadata.name;
      expect(field(pod, 'securityContext', 'runAsNonRoot'), name).toBe(true);
      expect(field(container, 'securityContext', 'readOnlyRootFilesystem'), name).toBe(true);
      expect(field(container, 'securityContext', 'allowPrivilegeEscalation'), name).toBe(false);
      expect(field(container, 'securityContext', 'capabilities', 'drop'), name).toEqual(['ALL']);
      expect(field(pod, 'securityContext', 'seccompProfile', 'type'), name).toBe('RuntimeDefault');
      expect(field(pod, 'securityContext', 'runAsUser'), `${name}: the image's numeric user`).toBe(1000);
      const mounts = container.volumeMounts as { name: string; mountPath: string }[];
      const tmp = mounts.find((mount) => mount.mountPath === '/tmp');
      const volumes = field(pod, 'volumes') as { name: string; emptyDir?: unknown }[];
      expect(volumes.find((volume) => volume.name === tmp?.name)?.emptyDir, name).toBeDefined();
      expect(field(container, 'resources', 'requests', 'memory'), name).toBeDefined();
      expect(field(container, 'resources', 'limits', 'memory'), name).toBeDefined();
    }
  });

  it('leave the workers replica count to KEDA and keep two supervisors', () => {
    for (const name of WORKERS) expect(field(deployment(name), 'spec', 'replicas'), name).toBeUndefined();
    expect(Number(field(deployment('supervisor'), 'spec', 'replicas'))).toBeGreaterThanOrEqual(2);
  });

  it('keep at least one pod of every service through voluntary disruptions', () => {
    const budgets = ofKind(entries, 'PodDisruptionBudget');
    expect(budgets.map((b) => b.metadata.name).sort()).toEqual([...SERVICES].sort());
    for (const budget of budgets) expect(field(budget, 'spec', 'minAvailable')).toBe(1);
  });

  it('mark every placeholder secret value clearly', () => {
    for (const secret of ofKind(entries, 'Secret')) {
      expect(secret.data, 'no base64 data committed').toBeUndefined();
      const values = Object.values(isRecord(secret.stringData) ? secret.stringData : {});
      expect(values.length).toBeGreaterThan(0);
      for (const value of values) expect(value).toBe('REPLACE_ME');
    }
  });
});
