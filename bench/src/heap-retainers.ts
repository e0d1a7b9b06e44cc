/**
 * What holds the memory of a V8 heap snapshot (`.heapsnapshot`, e.g. written on SIGUSR2 by a
 * service started with `--heapsnapshot-signal=SIGUSR2`, see `memory-sampler.ts`), without a browser:
 * the reachable heap by class (self size, and retained size: what would go with the objects of that
 * class not held by another of the same class), and the objects that retain the most, each with its
 * chain of dominators from the root.
 *
 *   node --max-old-space-size=4000 bench/src/heap-retainers.ts <file.heapsnapshot> [--top 30]
 *
 * Retained sizes come from the dominator tree (Cooper, Harvey and Kennedy's iterative algorithm),
 * weak edges left out, as DevTools computes them.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface Snapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '30' } },
});
const [path] = positionals;
if (!path) {
  console.error('usage: heap-retainers.ts <file.heapsnapshot> [--top <n>]');
  process.exit(2);
}
const top = Number(values.top);
const heap = JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
const { meta } = heap.snapshot;
const { nodes, edges, strings } = heap;
const nodeFields = meta.node_fields.length;
const edgeFields = meta.edge_fields.length;
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const field = (name: string) => meta.node_fields.indexOf(name);
const [typeField, nameField, sizeField, edgeCountField] = ['type', 'name', 'self_size', 'edge_count'].map(
  field,
) as [number, number, number, number];
const edgeTypeField = meta.edge_fields.indexOf('type');
const edgeNameField = meta.edge_fields.indexOf('name_or_index');
const edgeToField = meta.edge_fields.indexOf('to_node');
const count = nodes.length / nodeFields;
const at = (array: ArrayLike<number>, index: number) => array[index] ?? 0;

const firstEdge = new Uint32Array(count + 1);
for (let node = 0, edge = 0; node < count; node++) {
  firstEdge[node] = edge;
  edge += at(nodes, node * nodeFields + edgeCountField) * edgeFields;
  firstEdge[node + 1] = edge;
}
const ignored = new Set([edgeTypes.indexOf('weak'), edgeTypes.indexOf('shortcut')]);
const size = (node: number) => at(nodes, node * nodeFields + sizeField);
const className = (node: number) => {
  const type = nodeTypes[at(nodes, node * nodeFields + typeField)] ?? '?';
  const name = strings[at(nodes, node * nodeFields + nameField)] ?? '';
  if (type === 'object' || type === 'native') return name;
  return type === 'closure' ? `closure ${name}` : `(${type})`;
};
/** Calls `visit` with each strong edge's target of `node`, and the edge's offset. */
function eachChild(node: number, visit: (child: number, edge: number) => void): void {
  for (let edge = at(firstEdge, node); edge < at(firstEdge, node + 1); edge += edgeFields) {
    if (!ignored.has(at(edges, edge + edgeTypeField)))
      visit(at(edges, edge + edgeToField) / nodeFields, edge);
  }
}

// Depth-first post-order from the root (node 0).
const postIndex = new Int32Array(count).fill(-1);
const order = new Int32Array(count);
let reached = 0;
const stack = new Int32Array(count);
const next = new Uint32Array(count);
const seen = new Uint8Array(count);
let depth = 0;
stack[depth++] = 0;
seen[0] = 1;
next[0] = at(firstEdge, 0);
while (depth > 0) {
  const node = at(stack, depth - 1);
  const edge = at(next, node);
  if (edge < at(firstEdge, node + 1)) {
    next[node] = edge + edgeFields;
    if (ignored.has(at(edges, edge + edgeTypeField))) continue;
    const child = at(edges, edge + edgeToField) / nodeFields;
    if (!seen[child]) {
      seen[child] = 1;
      next[child] = at(firstEdge, child);
      stack[depth++] = child;
    }
  } else {
    depth--;
    postIndex[node] = reached;
    order[reached++] = node;
  }
}
const predecessors: number[][] = Array.from({ length: count }, () => []);
for (let node = 0; node < count; node++) {
  if (seen[node]) eachChild(node, (child) => predecessors[child]?.push(node));
}
const dominator = new Int32Array(count).fill(-1);
dominator[0] = 0;
const intersect = (first: number, second: number) => {
  let a = first;
  let b = second;
  while (a !== b) {
    while (at(postIndex, a) < at(postIndex, b)) a = at(dominator, a);
    while (at(postIndex, b) < at(postIndex, a)) b = at(dominator, b);
  }
  return a;
};
for (let changed = true; changed; ) {
  changed = false;
  for (let k = reached - 2; k >= 0; k--) {
    const node = at(order, k);
    let candidate = -1;
    for (const predecessor of predecessors[node] ?? []) {
      if (at(dominator, predecessor) === -1) continue;
      candidate = candidate === -1 ? predecessor : intersect(predecessor, candidate);
    }
    if (candidate !== -1 && dominator[node] !== candidate) {
      dominator[node] = candidate;
      changed = true;
    }
  }
}
const retained = new Float64Array(count);
for (let k = 0; k < reached; k++) {
  const node = at(order, k);
  retained[node] = at(retained, node) + size(node);
  if (node !== 0) retained[at(dominator, node)] = at(retained, at(dominator, node)) + at(retained, node);
}

const mb = (bytes: number) => (bytes / 1048576).toFixed(2).padStart(8);
const byClass = new Map<string, { objects: number; self: number; retained: number }>();
for (let node = 1; node < count; node++) {
  if (!seen[node]) continue;
  const name = className(node);
  const entry = byClass.get(name) ?? { objects: 0, self: 0, retained: 0 };
  entry.objects++;
  entry.self += size(node);
  if (className(at(dominator, node)) !== name) entry.retained += at(retained, node);
  byClass.set(name, entry);
}
console.log(`${path}: ${reached} reachable objects, ${mb(at(retained, 0)).trim()} MB`);
for (const key of ['self', 'retained'] as const) {
  console.log(`\nby class, largest ${key} size first:   self MB  retained MB  objects  class`);
  const rows = [...byClass].sort((a, b) => b[1][key] - a[1][key]).slice(0, top);
  for (const [name, entry] of rows) {
    console.log(
      `${mb(entry.self)}  ${mb(entry.retained)}  ${String(entry.objects).padStart(8)}  ${name.slice(0, 90)}`,
    );
  }
}
const edgeName = (parent: number, child: number) => {
  let name = '?';
  eachChild(parent, (target, edge) => {
    if (target !== child || name !== '?') return;
    const type = edgeTypes[at(edges, edge + edgeTypeField)];
    const label = at(edges, edge + edgeNameField);
    name = type === 'element' || type === 'hidden' ? `[${label}]` : (strings[label] ?? '?');
  });
  return name;
};
const chain = (node: number) => {
  const links: string[] = [];
  for (let current = node; current !== 0 && links.length < 8; current = at(dominator, current)) {
    links.unshift(
      `${className(at(dominator, current)).slice(0, 40)}.${edgeName(at(dominator, current), current)}`,
    );
  }
  return links.join(' > ');
};
console.log('\nthe objects that retain the most:');
const largest: number[] = [];
for (let node = 1; node < count; node++)
  if (seen[node] && at(retained, node) > 256 * 1024) largest.push(node);
largest.sort((a, b) => at(retained, b) - at(retained, a));
for (const node of largest.slice(0, top)) {
  console.log(
    `${mb(at(retained, node))} MB  ${className(node).slice(0, 50)}  via ${chain(node).slice(-240)}`,
  );
}
