// @switchboard/a2a/observe is deprecated: tracing of A2A calls moved to their own packages
// (docs/migration.md lists every name's new home). These re-exports go in the next release.
export type { TracedTransportFactoryOptions } from '@switchboard/delegate/observe';
export { tracedTransportFactory } from '@switchboard/delegate/observe';
