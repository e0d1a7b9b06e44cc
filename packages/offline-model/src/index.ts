/**
 * `@switchboard/offline-model`: a deterministic planner behind the `ChatModel` port. It picks tools
 * by their descriptions and fills arguments from the conversation, with no network and no weights,
 * for demos, tests and evals that must not depend on a model endpoint.
 */
export type { OfflineModelOptions } from './offline-model.ts';
export { OfflineModel } from './offline-model.ts';
