import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@switchboard/config';
import { loadServiceConfig } from '@switchboard/service';
import { afterAll, describe, expect, it } from 'vitest';
import {
  containerEnv,
  containersOf,
  filledIn,
  filledInConfig,
  K8S_DIR,
  loadManifests,
  type Manifest,
  type ManifestEntry,
  mountConfigFiles,
  validateManifest,
} from './support/k8s.ts';
import { WORKERS } from './support/paths.ts';
import { isRecord, parseYamlDocuments } from './support/yaml-files.ts';

const COMPONENT_DIR = join(K8S_DIR, 'redis-cluster');
const read = (file: string) => parseYamlDocuments(readFileSync(join(COMPONENT_DIR, file), 'utf8'), file);
const [component = {}] = read('kustomization.yaml') as { kind?: string; patches?: { path: string }[] }[];
const patchFiles = (component.patches ?? []).map((patch) => patch.path);
const patches = patchFiles.flatMap((file) => read(file) as Manifest[]);

/** A JSON merge patch (RFC 7386), as kustomize applies a patch to a custom resource: lists replaced. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return patch;
  const result: Record<string, unknown> = isRecord(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

const base = loadManifests();
const same = (a: Manifest, b: Manifest) => a.kind === b.kind && a.metadata.name === b.metadata.name;
/** The base with the Component applied: what `kubectl apply -k` creates with it listed. */
const patched: ManifestEntry[] = base.map((entry) => {
  const patch = patches.find((candidate) => same(candidate, entry.manifest));
  return patch ? { ...entry, manifest: mergePatch(entry.manifest, patch) as Manifest } : entry;
});
const find = (entries: readonly ManifestEntry[], kind: string, name: string): Manifest => {
  const found = entries.find(
    (entry) => entry.manifest.kind === kind && entry.manifest.metadata.name === name,
  );
  if (!found) throw new Error(`no ${kind} "${name}" in infra/k8s`);
  return found.manifest;
};
const triggersOf = (manifest: Manifest) =>
  (
    manifest.spec as {
      triggers: {
        type: string;
        name: string;
        metadata: Record<string, string>;
        authenticationRef: unknown;
      }[];
    }
  ).triggers;

const mounts = mkdtempSync(join(tmpdir(), 'sb-k8s-cluster-'));
afterAll(() => rmSync(mounts, { recursive: true, force: true }));
/** A worker's environment, as filled in, with or without the Component's Secret patch. */
const workerEnv = (name: string, entries: readonly ManifestEntry[]) => {
  const deployment = find(entries, 'Deployment', name);
  const [container] = containersOf(deployment);
  if (!container) throw new Error(`${name} has no container`);
  const env = containerEnv(container, entries, {
    fieldValues: { 'status.podIP': '10.1.2.3' },
    secretValue: filledIn,
  });
  return mountConfigFiles(deployment, entries, env, join(mounts, name), filledInConfig);
};

describe('infra/k8s/redis-cluster (the Redis Cluster Component)', () => {
  it('is a Component that applies every file it holds, each patching an object of the base', () => {
    expect(component.kind).toBe('Component');
    const files = readdirSync(COMPONENT_DIR).filter(
      (file) => file.endsWith('.yaml') && !['kustomization.yaml', 'bitnami-values.yaml'].includes(file),
    );
    expect([...patchFiles].sort()).toEqual(files.sort());
    for (const patch of patches) {
      expect(
        base.some((entry) => same(entry.manifest, patch)),
        `${patch.kind} ${patch.metadata.name}`,
      ).toBe(true);
    }
  });

  it('leaves every patched object valid against its schema', () => {
    for (const patch of patches)
      expect(() => validateManifest(find(patched, patch.kind, patch.metadata.name))).not.toThrow();
  });

  it.each(WORKERS)(
    'turns %s’s KEDA triggers into redis-cluster scalers over the same keys and nodes',
    (name) => {
      const before = triggersOf(find(base, 'ScaledObject', name));
      const after = triggersOf(find(patched, 'ScaledObject', name));
      expect(
        after.map((trigger) => [trigger.name, trigger.metadata.listName, trigger.metadata.listLength]),
      ).toEqual(
        before.map((trigger) => [trigger.name, trigger.metadata.listName, trigger.metadata.listLength]),
      );
      const data = (
        find(patched, 'ConfigMap', 'switchboard-config') as unknown as { data: Record<string, string> }
      ).data;
      for (const trigger of after) {
        expect(trigger.type).toBe('redis-cluster');
        expect(trigger.authenticationRef).toEqual(before[0]?.authenticationRef);
        // KEDA reads the variable from the scaled Deployment's container: the services' own nodes.
        expect(workerEnv(name, patched)[trigger.metadata.addressesFromEnv ?? '']).toBe(
          data.REDIS_CLUSTER_NODES,
        );
      }
    },
  );

  it.each(WORKERS)('points %s at the cluster, with the password and no REDIS_URL', (name) => {
    const config = loadServiceConfig({ env: workerEnv(name, patched), service: name, defaultPort: 4101 });
    expect(config.redisUrl).toBeUndefined();
    expect(String(config.redis.clusterNodes).split(',')).toHaveLength(3);
    expect(config.redis.password).toBe(workerEnv(name, patched).REDIS_PASSWORD);
  });

  it('needs its Secret patch: with REDIS_URL still set a service refuses to pick one', () => {
    const withoutSecretPatch = patched.map((entry) =>
      entry.manifest.kind === 'Secret'
        ? (base.find((b) => same(b.manifest, entry.manifest)) ?? entry)
        : entry,
    );
    const attempt = () =>
      loadServiceConfig({
        env: workerEnv('orders', withoutSecretPatch),
        service: 'orders',
        defaultPort: 4101,
      });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/REDIS_CLUSTER_NODES: is set together with REDIS_URL/);
  });
});
