// The HTTP binding: the A2A HTTP app, its server, and the card interfaces an HTTP host publishes.
export type { AdminApprovalsOptions } from './approvals/admin-approvals-router.ts';
export { adminApprovalsRouter } from './approvals/admin-approvals-router.ts';
export type { AgentCardRouteOptions, UnversionedCardShape } from './bindings/http/agent-card-route.ts';
export { agentCardRoute, UNVERSIONED_CARD_SHAPES } from './bindings/http/agent-card-route.ts';
export type { A2aHttpAppOptions } from './bindings/http/create-app.ts';
export { createA2aHttpApp } from './bindings/http/create-app.ts';
export type { ReadinessCheck } from './bindings/http/health-routes.ts';
export { a2aHttpInterfaces } from './bindings/http/paths.ts';
export type { A2aHttpServer, StartA2aHttpServerOptions } from './bindings/http/start-server.ts';
export { startA2aHttpServer } from './bindings/http/start-server.ts';
