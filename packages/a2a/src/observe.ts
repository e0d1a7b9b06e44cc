// @switchboard/a2a/observe is deprecated: tracing of A2A calls moved to their own packages
// (docs/migration.md lists every name's new home). These re-exports go in the next release.
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
export type { TracedTransportFactoryOptions } from '@switchboard/delegate/observe';
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
export { tracedTransportFactory } from '@switchboard/delegate/observe';
