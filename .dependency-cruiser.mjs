/**
 * The dependency rules of Switchboard, checked by `pnpm run lint` (docs/architecture.md draws them and says
 * why). Every rule is an error: the lint step fails naming the rule and the two files.
 *
 *   depcruise --config .dependency-cruiser.mjs packages examples bench e2e infra interop tools
 *
 * Paths are relative to the folder depcruise runs in (the repository root). A workspace package imported
 * by name resolves through its node_modules symlink to its real folder (`packages/a2a/src/index.ts`), so
 * the rules speak of folders; an import of ours that does not resolve keeps its name (`@switchboard/a2a`),
 * so the rules about packages match both.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** The workspace packages, from pnpm-workspace.yaml's globs: folder, name and manifest. */
function workspacePackages() {
  const dirs = ['bench', 'e2e', 'infra', 'interop'];
  // An example is a folder of packages of its own: `examples/<example>/<package>`.
  const examples = existsSync('examples')
    ? readdirSync('examples')
        .sort()
        .map((example) => `examples/${example}`)
    : [];
  for (const parent of ['apps', 'packages', 'tools', ...examples])
    if (existsSync(parent))
      for (const child of readdirSync(parent).sort())
        if (existsSync(`${parent}/${child}/package.json`)) dirs.push(`${parent}/${child}`);
  return dirs
    .filter((dir) => existsSync(`${dir}/package.json`))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) }));
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const either = (alternatives) => `(?:${alternatives.join('|')})`;

const PACKAGES = workspacePackages();
/** A file in one of our packages, capturing the package's folder as $1. */
const IN_A_PACKAGE = '^((?:apps|packages|tools|examples/[^/]+)/[^/]+|bench|e2e|infra|interop)/';
/** Any file of ours, by its resolved path, or an import of ours that did not resolve, by its name. */
const OURS = [IN_A_PACKAGE, '^@switchboard/'];
/** A package of ours, by its folder or by its name (`agent` → packages/agent/…, @switchboard/agent…). */
const pkg = (name) => [`^packages/${name}/`, `^@switchboard/${name}(?:/|$)`];

/** The files a package promises: its `exports` targets (the `default` condition), as resolved paths. */
const ENTRY_FILES = PACKAGES.flatMap(({ dir, manifest }) =>
  Object.values(manifest.exports ?? {}).flatMap((target) => {
    const file = typeof target === 'string' ? target : target?.default;
    return typeof file === 'string' ? [`^${escapeRegExp(`${dir}/${file.replace(/^\.\//, '')}`)}$`] : [];
  }),
);

/** Top to bottom: a folder (`loop`) or a file at `src/` (`errors.ts`) imports only from the layers below. */
function layers(packageDir, order) {
  const entry = (name) => (name.endsWith('.ts') ? `${escapeRegExp(name)}$` : `${name}/`);
  const at = (names) => `^${packageDir}/src/${either(names.map(entry))}`;
  return order.slice(1).map((layer, index) => {
    const above = order.slice(0, index + 1).flat();
    return {
      name: `${packageDir.split('/')[1]}-folders-point-down:${layer.join(',')}`,
      comment: `In ${packageDir}/src the layers go ${order.map((l) => l.join(' ')).join(' → ')}: ${layer.join(', ')} may import only the layers below, not ${above.join(', ')}. Move what both need down (STYLE.md: "Folders inside a package point one way too").`,
      severity: 'error',
      from: { path: at(layer) },
      to: { path: at(above) },
    };
  });
}

/** The workspace packages a package's src may import: its dependencies (not devDependencies). */
function undeclaredWorkspaceImports() {
  return PACKAGES.filter(({ dir }) => existsSync(`${dir}/src`)).flatMap(({ dir, manifest }) => {
    const declared = new Set(Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }));
    const others = PACKAGES.filter((other) => other.dir !== dir && !declared.has(other.manifest.name));
    if (others.length === 0) return [];
    return [
      {
        name: `not-to-dev-dep:${manifest.name}`,
        comment: `${dir}/src imports a workspace package that its package.json does not list under dependencies (a devDependency is not installed where the package runs). Add it to dependencies, or keep the import in test/.`,
        severity: 'error',
        from: { path: `^${escapeRegExp(dir)}/(?:src|bin)/` },
        to: { path: `^${either(others.map((other) => escapeRegExp(other.dir)))}/` },
      },
    ];
  });
}

const APPS_AND_TOOLS = PACKAGES.filter(({ dir }) => !/^(?:packages|examples)\//.test(dir));
const EXAMPLES = PACKAGES.filter(({ dir }) => dir.startsWith('examples/'));

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    // ---- Which package may import which --------------------------------------------------------
    {
      name: 'semconv-is-the-leaf',
      comment:
        'packages/semconv is the one table of span and attribute names: it imports nothing at all, so every package can import it.',
      severity: 'error',
      from: { path: '^packages/semconv/src/' },
      to: { pathNot: '^packages/semconv/src/' },
    },
    {
      name: 'agent-imports-only-semconv',
      comment:
        'The agent runtime (packages/agent) is importable without hosting, Redis or a tracer: of our packages it imports @switchboard/semconv only.',
      severity: 'error',
      from: { path: '^packages/agent/' },
      to: { path: OURS, pathNot: [...pkg('agent'), ...pkg('semconv')] },
    },
    {
      name: 'openai-imports-only-agent-and-semconv',
      comment:
        'The OpenAI provider (packages/openai) is a model adapter beside the runtime, not hosting: of our packages it imports @switchboard/agent and @switchboard/semconv only.',
      severity: 'error',
      from: { path: '^packages/openai/' },
      to: { path: OURS, pathNot: [...pkg('openai'), ...pkg('agent'), ...pkg('semconv')] },
    },
    {
      name: 'offline-model-imports-only-agent-and-semconv',
      comment:
        'The offline planner (packages/offline-model) is a model adapter beside the runtime, not hosting: of our packages it imports @switchboard/agent and @switchboard/semconv only.',
      severity: 'error',
      from: { path: '^packages/offline-model/' },
      to: { path: OURS, pathNot: [...pkg('offline-model'), ...pkg('agent'), ...pkg('semconv')] },
    },
    {
      name: 'embeddings-local-imports-only-agent',
      comment:
        'The local embedder (packages/embeddings-local) is a model adapter beside the runtime, not hosting: of our packages it imports @switchboard/agent only.',
      severity: 'error',
      from: { path: '^packages/embeddings-local/' },
      to: { path: OURS, pathNot: [...pkg('embeddings-local'), ...pkg('agent')] },
    },
    {
      name: 'tfjs-only-in-embeddings-local',
      comment:
        'TF.js and the embedding model (@energetic-ai/*, @tensorflow/*) are loaded by packages/embeddings-local only, so the runtime and a service that does not turn embedding recall on load none of it (~200 MB). Import LocalEmbedder from @switchboard/embeddings-local instead.',
      severity: 'error',
      from: { pathNot: '^packages/embeddings-local/' },
      to: { path: ['(?:^|/)node_modules/@(?:energetic-ai|tensorflow)/', '^@(?:energetic-ai|tensorflow)/'] },
    },
    {
      name: 'cards-imports-nothing-of-ours',
      comment:
        'The agent card toolkit (packages/cards) has no agent runtime in it: it imports none of our packages.',
      severity: 'error',
      from: { path: '^packages/cards/' },
      to: { path: OURS, pathNot: pkg('cards') },
    },
    {
      name: 'redis-is-a-leaf',
      comment:
        'packages/redis is the one Redis seam (connection, duplicate, scan): it imports none of our packages, so the transport and every store can import it.',
      severity: 'error',
      from: { path: '^packages/redis/' },
      to: { path: OURS, pathNot: pkg('redis') },
    },
    {
      name: 'a2a-bullmq-imports-only-semconv-and-redis',
      comment:
        'The BullMQ transport (packages/a2a-bullmq) carries A2A messages and never hosts an agent: of our packages it imports @switchboard/semconv and @switchboard/redis only (not host, service or agent).',
      severity: 'error',
      from: { path: '^packages/a2a-bullmq/' },
      to: { path: OURS, pathNot: [...pkg('a2a-bullmq'), ...pkg('semconv'), ...pkg('redis')] },
    },
    {
      name: 'protocol-imports-only-agent',
      comment:
        "packages/protocol is the vocabulary both sides of a call share (message builders, metadata keys, the card's permissions extension, the admin API's shapes): of our packages it imports the agent runtime only.",
      severity: 'error',
      from: { path: '^packages/protocol/' },
      to: { path: OURS, pathNot: [...pkg('protocol'), ...pkg('agent')] },
    },
    {
      name: 'identity-imports-only-agent-and-redis',
      comment:
        'packages/identity (who is calling: tokens, JWTs, service keys, assertions) knows nothing of A2A serving or delegation: of our packages it imports the agent runtime (principals) and @switchboard/redis (the replay guard) only.',
      severity: 'error',
      from: { path: '^packages/identity/' },
      to: { path: OURS, pathNot: [...pkg('identity'), ...pkg('agent'), ...pkg('redis')] },
    },
    {
      name: 'delegate-never-serves',
      comment:
        "packages/delegate is the caller's side: a supervisor or the CLI makes A2A calls with it without installing a server. It imports no @switchboard/host, no @switchboard/shadow and no express.",
      severity: 'error',
      from: { path: '^packages/delegate/' },
      to: { path: [...pkg('host'), ...pkg('shadow'), '^express$', 'node_modules/express/'] },
    },
    {
      name: 'host-knows-no-shadow',
      comment:
        'The host offers a port (ExecutorTap) and knows no implementation of it: packages/host never imports @switchboard/shadow, which plugs into that port from above.',
      severity: 'error',
      from: { path: '^packages/host/' },
      to: { path: pkg('shadow') },
    },
    {
      name: 'host-knows-no-console',
      comment:
        "The host offers a port for operators' routes (operatorRoutes) and knows no implementation of it: packages/host never imports @switchboard/console, which the service mounts through that port from above.",
      severity: 'error',
      from: { path: '^packages/host/' },
      to: { path: pkg('console') },
    },
    {
      name: 'shadow-imports-host-types-only',
      comment:
        "Shadow mode plugs into the host through its port: packages/shadow imports @switchboard/host for types only (an optional peer), so reading shadow records (the CLI's report) installs no server.",
      severity: 'error',
      from: { path: '^packages/shadow/src/' },
      to: { path: pkg('host'), dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'cli-is-a-client',
      comment:
        "The switchboard command talks to agents; it never serves one: packages/cli's src and bin import no @switchboard/host and no express (a store or server in the CLI belongs in a service).",
      severity: 'error',
      from: { path: '^packages/cli/(?:src|bin)/' },
      to: { path: [...pkg('host'), '^express$', 'node_modules/express/'] },
    },
    {
      name: 'packages-not-to-apps',
      comment:
        "Packages hold contracts and mechanisms; apps/*, bench, e2e, infra, interop and tools compose them. A package never imports one of those. The exception is tools/test-processes, test support (starting and stopping test processes) that a package's tests may import; its src cannot, as it is only ever a devDependency.",
      severity: 'error',
      from: { path: '^packages/' },
      to: {
        path: [
          '^(?:apps|tools)/|^(?:bench|e2e|infra|interop)/',
          `^${either(APPS_AND_TOOLS.map(({ manifest }) => escapeRegExp(manifest.name)))}(?:/|$)`,
        ],
        pathNot: ['^tools/test-processes/', '^@switchboard/test-processes$'],
      },
    },
    {
      name: 'platform-not-to-examples',
      comment:
        'The platform (packages/*) names no example: an example (examples/<example>/*) is built on the packages, as a user builds a team, and never the other way. A launcher that runs a team loads it at run time from a path (`--team`), it does not import it.',
      severity: 'error',
      from: { path: '^packages/' },
      to: {
        path: [
          '^examples/',
          ...(EXAMPLES.length > 0
            ? [`^${either(EXAMPLES.map(({ manifest }) => escapeRegExp(manifest.name)))}(?:/|$)`]
            : []),
        ],
      },
    },
    {
      name: 'no-relative-import-across-packages',
      comment:
        "A relative path into another package's folder (../../host/src/…) skips its package.json: import it by its name (@switchboard/host) and list it in dependencies.",
      severity: 'error',
      from: { path: IN_A_PACKAGE },
      to: { dependencyTypes: ['local'], path: IN_A_PACKAGE, pathNot: '^$1/' },
    },
    {
      name: 'no-deep-import',
      comment:
        'Import a package through an entry point its package.json `exports` names (@switchboard/agent, @switchboard/agent/testing), not its internals (@switchboard/host/src/…). If you need something that is not exported, export it or ask whether you should need it.',
      severity: 'error',
      from: { path: IN_A_PACKAGE },
      to: {
        path: [IN_A_PACKAGE, '^@switchboard/[^/]+/'],
        pathNot: ['^$1/', ...ENTRY_FILES],
        dependencyTypesNot: ['local'],
      },
    },

    // ---- Folders inside a package point one way ------------------------------------------------
    {
      name: 'no-circular',
      comment:
        'Files that import each other in a circle (type-only imports count) are one concept in several files, or a third concept hiding: move what both need into a file both import.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layers('packages/agent', [
      ['testing'],
      ['index.ts', 'deprecated.ts'],
      ['structured'],
      ['loop'],
      ['routing'],
      ['context'],
      ['tools'],
      ['state', 'observe'],
      ['policy'],
      ['model', 'errors.ts'],
    ]),
    ...layers('packages/cards', [
      ['index.ts'],
      ['verify', 'diff'],
      ['check', 'convert', 'sign'],
      ['json', 'errors.ts'],
    ]),
    // Hosting: the entry points on top, the one composition (hostAgent) and the agent server under it,
    // the bindings (HTTP) and the handler layers, the executor, then what it persists (runs, approvals,
    // tasks), the card, the errors at the bottom. Each feature folder owns its Redis implementation.
    ...layers('packages/host', [
      ['index.ts', 'http.ts', 'redis.ts', 'approvals.ts', 'deprecated.ts'],
      ['host-agent.ts'],
      ['agent-handler.ts'],
      ['pipeline.ts'],
      ['bindings'],
      ['middleware'],
      ['executor'],
      ['runs', 'costs'],
      ['approvals'],
      ['tasks'],
      ['card'],
      ['errors.ts'],
    ]),

    // ---- What src may import from npm ----------------------------------------------------------
    {
      name: 'not-to-dev-dep',
      comment:
        "src/ and bin/ run where only the package's dependencies are installed (the image runs `pnpm install --prod`): they import no devDependency (vitest, @types/*, typescript…). Move the package to dependencies, or the import to test/.",
      severity: 'error',
      from: { path: '^(?:apps|packages|examples/[^/]+)/[^/]+/(?:src|bin)/' },
      to: { dependencyTypes: ['npm-dev'] },
    },
    ...undeclaredWorkspaceImports(),
    {
      name: 'no-non-package-json',
      comment:
        "Imports a package that the importing package's own package.json does not list (it resolved from the root or by hoisting): add it to that package.json.",
      severity: 'error',
      from: {},
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'not-to-unresolvable',
      comment:
        'Imports something that does not resolve: a file that is not there, a package not in package.json (pnpm links only what is listed), or a subpath its `exports` does not name.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: '^@switchboard/[^/]+/' },
    },
  ],
  options: {
    // `import type` is a dependency too: it ties the concepts together even though Node erases it.
    tsPreCompilationDeps: true,
    // Each file's own package.json (the closest), not the root's merged in: a package lists what it uses.
    combinedDependencies: false,
    doNotFollow: { path: 'node_modules' },
    // The scaffold's templates are the code of a team outside this repository (switchboard new team).
    exclude: {
      path: '^(?:apps|packages|tools|examples/[^/]+)/[^/]+/dist/|^(?:bench|e2e|infra|interop)/dist/|^packages/cli/templates/',
    },
    // Node's resolution, as our imports are written: `.ts` specifiers, packages through their `exports`
    // (the default condition names the `.ts` sources) and their symlinks, resolved to the real folder.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    preserveSymlinks: false,
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
