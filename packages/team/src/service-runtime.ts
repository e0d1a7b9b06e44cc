/**
 * How a service process is started: the Node flags and the environment that keep its memory small
 * without costing CPU, measured with the soak (docs/benchmarks.md "What holds a service's memory").
 * The launcher (`launchSystem`) starts every service with them; the image sets the same in
 * `infra/Dockerfile` (its test checks they agree).
 */
export const SERVICE_RUNTIME = {
  /**
   * Node flags, ahead of the caller's own `NODE_OPTIONS` (so a flag given there wins).
   * `--max-semi-space-size=16`: V8's young generation at most 2 × 16 MB instead of the 2 × 32 MB it
   * commits from the start on a 64-bit machine; 15-35 MB less at idle and 25-50 MB less at the
   * supervisor's peak, at a CPU cost the soaks cannot tell from their noise (a smaller one, 8 or 2,
   * costs 10-30% more CPU: it collects and promotes the state of the requests in flight more often).
   */
  nodeOptions: ['--max-semi-space-size=16'],
  /**
   * Environment defaults (one the caller sets wins). `MALLOC_ARENA_MAX=2`: glibc's malloc keeps at
   * most two arenas instead of eight per core, one for each thread that allocates (V8's and libuv's
   * helper threads); 8-12 MB less at idle, no CPU cost the soaks tell from their noise.
   */
  env: { MALLOC_ARENA_MAX: '2' } as Readonly<Record<string, string>>,
} as const;

/**
 * `env` with {@link SERVICE_RUNTIME} applied: its node flags before `env.NODE_OPTIONS`, its variables
 * where `env` has none.
 */
export function withServiceRuntime(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const nodeOptions = [...SERVICE_RUNTIME.nodeOptions, env.NODE_OPTIONS?.trim()].filter(Boolean).join(' ');
  const defaults = Object.entries(SERVICE_RUNTIME.env).filter(([name]) => !env[name]?.trim());
  return { ...env, ...Object.fromEntries(defaults), NODE_OPTIONS: nodeOptions };
}
