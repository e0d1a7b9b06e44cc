// Tracing for A2A callers over HTTP: a transport factory whose calls are CLIENT spans.
export type { TracedTransportFactoryOptions } from './traced-transport.ts';
export { tracedTransportFactory } from './traced-transport.ts';
