/**
 * What a request costs, per configuration of the soak: service CPU ms per answered request (each
 * service, replicas added up, and the sum of the services; the model server and Redis apart), Redis
 * commands and bytes written per answered request, and the commonest Redis commands.
 */
import type { ConfigurationResult } from './soak-report.ts';

const SERVICES = ['supervisor', 'orders', 'inventory', 'comms'];
const OTHERS = ['model server', 'redis'];
/** How many (command, key) families the MONITOR breakdown lists. */
const TOP_FAMILIES = 40;

/** How many commands the per-command line names. */
const TOP_COMMANDS = 10;

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/** CPU ms over the window of the processes named `name` or `name-<n>`. */
function cpuOf(result: ConfigurationResult, name: string): number {
  return result.usage
    .filter((entry) => entry.name === name || new RegExp(`^${name}-\\d+$`).test(entry.name))
    .reduce((sum, entry) => sum + entry.cpuMs, 0);
}

const answered = (result: ConfigurationResult) => result.measured.filter((outcome) => outcome.ok).length;

/** The cost figures of one configuration, per answered request. */
export function costPerRequest(result: ConfigurationResult) {
  const ok = answered(result);
  const services = Object.fromEntries(SERVICES.map((name) => [name, cpuOf(result, name) / ok]));
  return {
    services,
    servicesTotal: Object.values(services).reduce((sum, ms) => sum + ms, 0),
    others: Object.fromEntries(OTHERS.map((name) => [name, cpuOf(result, name) / ok])),
    redisCommands: result.redis.commands / ok,
    redisBytes: result.redis.inputBytes / ok,
    topCommands: [...result.redis.calls]
      .sort(([, x], [, y]) => y - x)
      .slice(0, TOP_COMMANDS)
      .map(([name, count]) => [name, count / ok] as const),
  };
}

/** Prints the cost table (one row per configuration) and the commonest Redis commands to stdout. */
export function printCostReport(results: readonly ConfigurationResult[]): void {
  const width = Math.max(
    'configuration'.length,
    ...results.map((result) => result.configuration.name.length),
  );
  const columns = [...SERVICES, 'services', ...OTHERS, 'Redis cmds', 'Redis KB written'];
  console.log(
    '\nCost per answered request over the measured window: CPU ms of each process (from /proc, all its ' +
      'threads; replicas added up), Redis commands (those run inside Lua scripts included) and bytes ' +
      'clients wrote to Redis\n',
  );
  console.log(`${'configuration'.padEnd(width)} | ${columns.join(' | ')}`);
  for (const result of results) {
    const cost = costPerRequest(result);
    const cells = [
      ...SERVICES.map((name) => fixed(cost.services[name] ?? 0, 1)),
      fixed(cost.servicesTotal, 1),
      ...OTHERS.map((name) => fixed(cost.others[name] ?? 0, 1)),
      fixed(cost.redisCommands, 0),
      fixed(cost.redisBytes / 1024, 1),
    ];
    console.log(
      `${result.configuration.name.padEnd(width)} | ${cells.map((cell, i) => cell.padStart(columns[i]?.length ?? 0)).join(' | ')}`,
    );
  }
  for (const result of results) {
    const cost = costPerRequest(result);
    console.log(
      `\n${result.configuration.name}: Redis commands per answered request, commonest first: ` +
        cost.topCommands.map(([name, perRequest]) => `${name} ${fixed(perRequest, 1)}`).join(', '),
    );
    const families = result.redis.families;
    if (families) {
      const ok = answered(result);
      const top = [...families].sort(([, x], [, y]) => y.count - x.count).slice(0, TOP_FAMILIES);
      console.log(
        `${result.configuration.name}: by command and key (MONITOR), per answered request, commonest first (commands, KB clients sent):`,
      );
      for (const [family, { count, bytes }] of top) {
        console.log(
          `  ${fixed(count / ok, 1).padStart(7)}  ${fixed(bytes / 1024 / ok, 2).padStart(6)}  ${family}`,
        );
      }
    }
    if (!result.redis.own) {
      console.log(
        `  note: Redis is a shared server (--redis-url); its counts include whatever else it served meanwhile`,
      );
    }
  }
}
