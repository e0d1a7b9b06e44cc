// @switchboard/a2a/http is deprecated: the HTTP binding moved to their own packages
// (docs/migration.md lists every name's new home). These re-exports go in the next release.
export type {
  A2aHttpAppOptions,
  A2aHttpServer,
  AdminApprovalsOptions,
  AgentCardRouteOptions,
  ReadinessCheck,
  StartA2aHttpServerOptions,
  UnversionedCardShape,
} from '@switchboard/host/http';
export {
  a2aHttpInterfaces,
  adminApprovalsRouter,
  agentCardRoute,
  createA2aHttpApp,
  startA2aHttpServer,
  UNVERSIONED_CARD_SHAPES,
} from '@switchboard/host/http';
