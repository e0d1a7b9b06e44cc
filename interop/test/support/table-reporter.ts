import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Reporter, TestModule } from 'vitest/node';
import { OPERATIONS, type Operation, PEER_CLIENTS } from './clients.ts';

const INTEROP_DIR = new URL('../../', import.meta.url);
/** The page the table is embedded in, between these two markers. */
const PAGE = fileURLToPath(new URL('../docs/conformance.md', INTEROP_DIR));
const START = '<!-- interop-table:start (written by `pnpm --filter @switchboard/interop table`) -->';
const END = '<!-- interop-table:end -->';

interface Cell {
  passed: number;
  failed: number;
  skipped: number;
  peerFaults: Set<string>;
}

/** The name and version of the package a client comes from, as installed. */
const manifestOf = (packageDir: string) =>
  JSON.parse(readFileSync(new URL(`node_modules/${packageDir}/package.json`, INTEROP_DIR), 'utf8')) as {
    name: string;
    version: string;
  };

/** The table as markdown: one row per peer client, one column per operation, and the notes under it. */
export function interopTable(cells: ReadonlyMap<string, Cell>): string {
  const faults: string[] = [];
  /** By client and reason, the operations not offered: one note each. */
  const notOffered = new Map<string, { label: string; reason: string; operations: Operation[] }>();
  const rows = PEER_CLIENTS.map((client) => {
    const { name, version } = manifestOf(client.packageDir);
    const columns = OPERATIONS.map((operation: Operation) => {
      const reason = client.notOffered[operation];
      if (reason) {
        const key = `${client.id} ${reason}`;
        const note = notOffered.get(key) ?? { label: client.label, reason, operations: [] };
        note.operations.push(operation);
        notOffered.set(key, note);
        return 'not offered';
      }
      const cell = cells.get(`${client.id} ${operation}`);
      if (!cell || cell.passed + cell.failed === 0) return cell?.skipped ? 'skipped' : 'not run';
      if (cell.failed > 0) return '**fail**';
      const numbers = [...cell.peerFaults].map((fault) => {
        if (!faults.includes(fault)) faults.push(fault);
        return faults.indexOf(fault) + 1;
      });
      return numbers.length > 0 ? `pass (peer fault ${numbers.join(', ')})` : 'pass';
    });
    return `| ${client.label} | \`${name}\` ${version} | ${columns.join(' | ')} |`;
  });
  return [
    `| client | package | ${OPERATIONS.join(' | ')} |`,
    `| --- | --- | ${OPERATIONS.map(() => '---').join(' | ')} |`,
    ...rows,
    '',
    'Peer faults (each pinned by a test that passes while the fault is there):',
    '',
    ...faults.map((fault, index) => `${index + 1}. ${fault}`),
    '',
    'Not offered:',
    '',
    ...[...notOffered.values()].map(
      ({ label, reason, operations }) => `- ${label}, ${operations.join(', ')}: ${reason}.`,
    ),
  ].join('\n');
}

/**
 * Collects each interop test's cell (client × operation, from its meta) and result. With
 * `SWITCHBOARD_WRITE_INTEROP_TABLE=1` it writes the table into docs/conformance.md between the markers;
 * otherwise it writes nothing, so a plain run (CI) leaves the tree as it was.
 */
export default class InteropTableReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (process.env.SWITCHBOARD_WRITE_INTEROP_TABLE !== '1') return;
    const cells = new Map<string, Cell>();
    for (const testModule of testModules)
      for (const test of testModule.children.allTests()) {
        const cellOf = test.meta().interop;
        if (!cellOf) continue;
        const key = `${cellOf.client} ${cellOf.operation}`;
        const cell = cells.get(key) ?? { passed: 0, failed: 0, skipped: 0, peerFaults: new Set<string>() };
        const { state } = test.result();
        if (state === 'passed') cell.passed++;
        else if (state === 'failed') cell.failed++;
        else cell.skipped++;
        if (cellOf.peerFault && state === 'passed') cell.peerFaults.add(cellOf.peerFault);
        cells.set(key, cell);
      }
    const page = readFileSync(PAGE, 'utf8');
    const start = page.indexOf(START);
    const end = page.indexOf(END);
    if (start < 0 || end < start)
      throw new Error(`docs/conformance.md lost its interop table markers; put back:\n${START}\n${END}`);
    writeFileSync(
      PAGE,
      `${page.slice(0, start + START.length)}\n\n${interopTable(cells)}\n\n${page.slice(end)}`,
    );
  }
}
