import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { execForm, parseDockerfile, type Stage } from './support/dockerfile.ts';
import { REPO_ROOT, readRepoFile } from './support/paths.ts';

const dockerfile = parseDockerfile(readRepoFile('infra/Dockerfile'));
const finalStage = dockerfile.stages.at(-1) as Stage;
const all = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);
const last = (stage: Stage, keyword: string) => all(stage, keyword).at(-1)?.args ?? '';
/** `ENV A=1 B=2` instructions of a stage, as one map. */
const envOf = (stage: Stage) =>
  Object.fromEntries(
    all(stage, 'ENV').flatMap((i) =>
      [...i.args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=(\S+)/g)].map((m) => [m[1], m[2]]),
    ),
  );
const packageJson = JSON.parse(readRepoFile('package.json')) as {
  packageManager: string;
  engines: { node: string };
  devDependencies: { node: string };
};

describe('infra/Dockerfile', () => {
  it('builds in stages and ships a small image of the Node the repository runs and tests on', () => {
    expect(dockerfile.stages.length).toBeGreaterThanOrEqual(2);
    const nodeImage = dockerfile.globalArgs
      .find((arg) => arg.args.startsWith('NODE_IMAGE='))
      ?.args.split('=')[1];
    for (const stage of dockerfile.stages) expect(stage.image).toBe(`\${NODE_IMAGE}`);
    // The pinned `node` devDependency every pnpm script runs on, so the image runs what was tested.
    const pinned = packageJson.devDependencies.node;
    expect(nodeImage).toBe(`node:${pinned}-slim`);
    expect(pinned.split('.')[0]).toBe('24');
    expect(packageJson.engines.node).toMatch(/^>=24\./);
  });

  it('loads no loader or transpiler through NODE_OPTIONS', () => {
    expect(envOf(finalStage).NODE_OPTIONS ?? '').not.toMatch(
      /--(import|loader|require|experimental-loader)|-r\b/,
    );
  });

  it('installs with the pinned pnpm from the frozen lockfile, production dependencies only', () => {
    const [build] = dockerfile.stages;
    const runs = build ? all(build, 'RUN').map((i) => i.args) : [];
    const pnpmVersion = packageJson.packageManager.replace(/^pnpm@/, '');
    expect(runs.some((run) => run.includes(`pnpm@${pnpmVersion}`))).toBe(true);
    const install = runs.find(
      (run) => /pnpm (\S+ )*install/.test(run) && !run.includes('npm install --global'),
    );
    expect(install).toContain('--frozen-lockfile');
    expect(install).toContain('--prod');
  });

  it('runs as a numeric non-root user in the final stage', () => {
    const user = last(finalStage, 'USER');
    expect(user).toMatch(/^\d+(:\d+)?$/);
    expect(user.split(':')[0]).not.toBe('0');
  });

  it('listens on 0.0.0.0 at the exposed $PORT and stops on SIGTERM', () => {
    const env = envOf(finalStage);
    expect(env.HOST).toBe('0.0.0.0');
    expect(last(finalStage, 'EXPOSE')).toBe(env.PORT);
    expect(last(finalStage, 'STOPSIGNAL')).toBe('SIGTERM');
  });

  it('checks health with GET /healthz on $PORT through node, not curl', () => {
    const healthcheck = last(finalStage, 'HEALTHCHECK');
    const command = execForm(healthcheck.slice(healthcheck.indexOf('CMD ') + 4));
    expect(command[0]).toBe('node');
    expect(command.join(' ')).toContain('/healthz');
    expect(command.join(' ')).toContain('process.env.PORT');
    expect(healthcheck).not.toContain('curl');
  });

  it('starts through the entry script it copies into the image', () => {
    const entrypoint = execForm(last(finalStage, 'ENTRYPOINT'));
    const script = entrypoint.find((part) => part.endsWith('entrypoint.sh'));
    expect(script).toBe('/app/infra/entrypoint.sh');
    const copies = all(finalStage, 'COPY').map((i) => i.args.split(/\s+/));
    expect(copies.some((parts) => parts.includes('/app/infra/entrypoint.sh'))).toBe(true);
  });

  it('copies only files that exist in the build context', () => {
    const [build] = dockerfile.stages;
    const sources = (build ? all(build, 'COPY') : [])
      .map((i) => i.args.split(/\s+/).filter((part) => !part.startsWith('--')))
      .flatMap((parts) => parts.slice(0, -1))
      .filter((source) => source !== '.');
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(existsSync(join(REPO_ROOT, source)), source).toBe(true);
  });

  it('keeps installed, generated and secret files out of the build context', () => {
    const ignored = readRepoFile('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    for (const pattern of [
      '**/node_modules',
      '.git',
      '.switchboard',
      '**/dist',
      '**/.turbo',
      '**/coverage',
      '**/.env',
    ])
      expect(ignored).toContain(pattern);
  });
});
