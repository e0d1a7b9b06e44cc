// The express edge: the A2A HTTP app, its server, the operators' approvals router, and the card
// interfaces an HTTP host publishes.
export type { AdminApprovalsOptions } from './admin-approvals.ts';
export { adminApprovalsRouter } from './admin-approvals.ts';
export type { AgentCardRouteOptions, UnversionedCardShape } from './agent-card-route.ts';
export { agentCardRoute, UNVERSIONED_CARD_SHAPES } from './agent-card-route.ts';
export type { A2aHttpAppOptions } from './create-app.ts';
export { createA2aHttpApp } from './create-app.ts';
export type { ReadinessCheck } from './health-routes.ts';
export { a2aHttpInterfaces } from './paths.ts';
export type { A2aHttpServer, StartA2aHttpServerOptions } from './start-server.ts';
export { startA2aHttpServer } from './start-server.ts';
