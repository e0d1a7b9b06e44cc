/**
 * A soak of the customer-service system: N requests (default 10,000) from the official SDK client
 * through the supervisor, which delegates each over A2A on the BullMQ queues to a worker (orders:
 * get_order + estimate_delivery; inventory: check_stock), every agent calling a model that takes
 * 200 ms per call. Two configurations in the same run, each on a fresh Redis namespace (deleted
 * after): one process per worker (the baseline), then two processes each of orders and inventory.
 *
 *   pnpm --filter @switchboard/bench soak [-- --node-flags="--max-old-space-size=96" --requests 10000 --concurrency 100 --warmup 100
 *                                           --timeout-ms 120000 --latency-ms 200 --redis-url <url>]
 *                                           [--variants "MALLOC_ARENA_MAX=2;--max-semi-space-size=2" --rounds 2]
 *
 * `--variants` soaks the baseline configuration as it is and then with each variant (environment
 * `NAME=value` and node flags, `;` between variants) instead of the replicated configuration;
 * `--rounds n` alternates the configurations n times, so a change is measured beside its baseline.
 *
 * Per configuration it reports throughput (answered requests per second over the measured window),
 * p50/p99 latency of the answered requests, service CPU ms per answered request, the idle memory of
 * each service process (VmRSS 3 s after it was ready, before any request), the peak memory (VmRSS from
 * /proc every 250 ms, or VmHWM at the end if higher; and the largest VmRSS of each tenth of the run,
 * which shows whether memory keeps growing), and requests lost or duplicated:
 *  - lost: a request (warm-up included) that did not end in a completed task whose answer has what
 *    the prompt asks for; grouped by kind (client timeout, task failed, error message, ...);
 *  - duplicated: from the task records in Redis, a request with more than one supervisor task, more
 *    than one task at a worker (the delegation derives the worker's contextId from the supervisor's,
 *    see `soak-audit.ts`), or a tool call that started twice in a task's history.
 * Where the time goes: CPU time of every process over the measured window (each service, the model
 * server, this process, Redis) and the machine's busy share. What a request costs: service CPU ms per
 * answered request (each service and their sum, the model server and Redis apart), and Redis commands
 * and bytes written per answered request with the commonest commands. For exact Redis counts the soak
 * starts a `redis-server` of its own on a free loopback port (no persistence; stopped at the end) and
 * resets its counters at the start of each measured window; `--redis-url` uses a shared server instead
 * (then its counts include whatever else it served meanwhile). The model (`slow-model.ts`) runs behind
 * the OpenAI-compatible test server in its own process (`soak-model-server.ts`), shared by both
 * configurations; this process only runs the client. Exits 0 when no request was lost or duplicated
 * in any configuration, else 1 with the reason.
 */
import { printCostReport } from './soak-cost-report.ts';
import { SOAK_PROMPTS } from './soak-load.ts';
import { readSoakOptions } from './soak-options.ts';
import { printReport, printVerdict } from './soak-report.ts';
import { runSoak } from './soak-run.ts';
import type { SoakConfiguration } from './soak-system.ts';

const CONFIGURATIONS: readonly SoakConfiguration[] = [
  { name: '1 process per worker (baseline)', replicas: {} },
  { name: '2 x orders, 2 x inventory', replicas: { orders: 2, inventory: 2 } },
];

const { options, strings } = readSoakOptions('soak', process.argv.slice(2), {
  extra: ['node-flags', 'variants', 'rounds'],
});
// e.g. --node-flags="--max-old-space-size=96": what a deployment would set, to see what it changes.
const nodeFlags = (strings['node-flags'] ?? '').split(/\s+/).filter(Boolean);
const rounds = Number(strings.rounds ?? '1');
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error(`soak: --rounds must be a whole number of at least 1; got "${strings.rounds}".`);
  process.exit(2);
}
const configurations = strings.variants
  ? variantConfigurations(strings.variants, rounds)
  : Array.from({ length: rounds }, (_, round) =>
      CONFIGURATIONS.map((configuration) =>
        rounds === 1
          ? configuration
          : { ...configuration, name: `${configuration.name}, round ${round + 1}` },
      ),
    ).flat();
const { results, failures } = await runSoak({ options, configurations, nodeFlags });

if (results.length > 0) {
  printReport(
    results,
    `Soak: ${options.requests} requests per configuration (after ${options.warmup} warm-up), ` +
      `${options.concurrency} in flight, alternating ${SOAK_PROMPTS.map((prompt) => `"${prompt.text}" (${prompt.agent})`).join(' and ')}; ` +
      `every model call takes ${options.latencyMs} ms; client timeout ${options.timeoutMs} ms. ` +
      'req/s and p50/p99 over the answered requests; lost and duplicated include the warm-up; ' +
      'service CPU ms per answered request; idle RSS (3 s after start, before any request) and peak RSS (VmHWM) in MB per process (replicas separated by /)',
  );
  printCostReport(results);
}
process.exitCode = printVerdict(results, failures, configurations.length);

/**
 * `--variants "MALLOC_ARENA_MAX=2;--max-semi-space-size=2"`: the baseline configuration (one process
 * per worker) as it is, then with each variant (`;` between them; in a variant, `NAME=value` is an
 * environment variable of the services, anything else a node flag), alternated `rounds` times.
 */
function variantConfigurations(text: string, rounds: number): SoakConfiguration[] {
  const variants = text.split(';').map((variant) => variant.trim().split(/\s+/).filter(Boolean));
  const configurations: SoakConfiguration[] = [];
  for (let round = 1; round <= rounds; round++) {
    const suffix = rounds === 1 ? '' : `, round ${round}`;
    configurations.push({ name: `baseline${suffix}`, replicas: {} });
    for (const tokens of variants) {
      const env = Object.fromEntries(
        tokens.filter((token) => /^[A-Z_][A-Z0-9_]*=/.test(token)).map((token) => token.split(/=(.*)/s, 2)),
      );
      const flags = tokens.filter((token) => !/^[A-Z_][A-Z0-9_]*=/.test(token));
      configurations.push({ name: `${tokens.join(' ')}${suffix}`, replicas: {}, nodeFlags: flags, env });
    }
  }
  return configurations;
}
