/**
 * Malformed and hostile JSON-RPC requests, generated: none of them is a valid A2A call, so every one
 * must be answered with an error, and none may take a service down or write a broken task.
 */

/** One generated request: its raw body and what kind of trouble it carries. */
export interface HostileRequest {
  kind: string;
  body: string | Buffer;
}

const METHODS = ['SendMessage', 'GetTask', 'CancelTask', 'SendStreamingMessage', 'ListTasks'];

function nested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

const rpc = (method: unknown, params: unknown, id: unknown = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** The families of bad input; each takes a counter so that cases differ. */
const FAMILIES: ((n: number) => HostileRequest)[] = [
  (n) => ({ kind: 'not JSON', body: `{"jsonrpc": "2.0", "method": "SendMessage", "id": ${n}, ` }),
  (n) => ({ kind: 'garbage', body: `\u0000\u0001<script>${'x'.repeat(n % 50)}` }),
  (n) => ({
    kind: 'invalid UTF-8',
    body: Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"'),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28, (n % 256) | 0x80]),
      Buffer.from('"}'),
    ]),
  }),
  (n) => ({ kind: 'not an object', body: JSON.stringify([n, 'x', null, true, [], 'str'][n % 6]) }),
  (n) => ({ kind: 'batch', body: `[${rpc('GetTask', { id: `t-${n}` })},${rpc('GetTask', { id: 'u' })}]` }),
  (n) => ({ kind: 'no jsonrpc', body: JSON.stringify({ id: n, method: 'GetTask', params: { id: 'x' } }) }),
  (n) => ({
    kind: 'wrong version',
    body: JSON.stringify({ jsonrpc: '1.0', id: n, method: 'GetTask', params: {} }),
  }),
  (n) => ({
    kind: 'unknown method',
    body: rpc(['DropTables', '__proto__', 'constructor', 'x'.repeat(5_000), ''][n % 5], {}),
  }),
  (n) => ({ kind: 'method not a string', body: rpc([42, null, { a: 1 }, ['SendMessage']][n % 4], {}) }),
  (n) => ({
    kind: 'params not an object',
    body: rpc(METHODS[n % METHODS.length], ['x', 5, true, [1, 2]][n % 4]),
  }),
  (n) => ({
    kind: 'message of the wrong type',
    body: rpc('SendMessage', { message: [5, 'hi', null, []][n % 4] }),
  }),
  (n) => ({
    kind: 'parts of the wrong type',
    body: rpc('SendMessage', {
      message: { messageId: `m-${n}`, role: 'ROLE_USER', parts: ['text', 7, { text: 5 }, [{}]][n % 4] },
    }),
  }),
  (n) => ({
    kind: 'unknown role',
    body: rpc('SendMessage', {
      message: { messageId: `m-${n}`, role: 'ROLE_ALIEN', parts: [{ text: 'hi' }] },
    }),
  }),
  (n) => ({
    kind: 'no message id',
    body: rpc('SendMessage', { message: { role: 'ROLE_USER', parts: [{ text: `hi ${n}` }] } }),
  }),
  (n) => ({
    kind: 'deep nesting',
    body: `{"jsonrpc":"2.0","id":${n},"method":"SendMessage","params":{"message":${nested(5_000 + n)}}}`,
  }),
  (n) => ({
    kind: 'prototype pollution',
    body: `{"jsonrpc":"2.0","id":${n},"method":"GetTask","params":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}`,
  }),
  (n) => ({
    kind: 'task id of the wrong type',
    body: rpc('GetTask', { id: [5, null, { $ne: 1 }, ['a']][n % 4] }),
  }),
  (n) => ({ kind: 'unknown task', body: rpc(['GetTask', 'CancelTask'][n % 2], { id: `no-such-task-${n}` }) }),
  (n) => ({
    kind: 'id of the wrong type',
    body: JSON.stringify({ jsonrpc: '2.0', id: { n }, method: 'GetTask', params: { id: 'x' } }),
  }),
  (n) => ({ kind: 'lone surrogates', body: rpc('SendMessage', { message: `\ud800\udfff\ud800 ${n}` }) }),
];

/** `count` hostile requests, cycling through every family; `huge` adds one over-the-limit body per 100. */
export function hostileRequests(count: number, { huge = true } = {}): HostileRequest[] {
  return Array.from({ length: count }, (_, n) => {
    if (huge && n % 100 === 99)
      return { kind: 'huge', body: rpc('SendMessage', { message: { text: 'x'.repeat(2_000_000) } }) };
    const family = FAMILIES[n % FAMILIES.length];
    if (!family) throw new Error('no family');
    return family(n);
  });
}
