// Tracing of A2A calls: a transport factory whose calls are CLIENT spans, and the stream and attribute
// helpers the server side (@switchboard/host) traces its calls with too.

export {
  messageAttributes,
  recordCallFailure,
  requestAttributes,
  resultAttributes,
  streamEventAttributes,
} from './a2a-span-attributes.ts';
export { costAttributes, costAttributesOf } from './cost-attributes.ts';
export { tracedStream } from './traced-stream.ts';
export type { TracedTransportFactoryOptions } from './traced-transport.ts';
export { tracedTransportFactory } from './traced-transport.ts';
export { A2A_TRACER_NAME } from './tracer-name.ts';
