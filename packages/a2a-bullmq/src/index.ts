// client

// redis: deprecated here, import them from @switchboard/redis (re-exported for one release)
/** @deprecated Import from `@switchboard/redis`; this re-export goes in the next release. */
export type { RedisConnection, RedisConnectionOptions } from '@switchboard/redis';
/** @deprecated Import from `@switchboard/redis`; this re-export goes in the next release. */
export {
  createRedisConnection,
  duplicateConnection,
  isCluster,
  parseClusterNodes,
  redactUrl,
  scanKeys,
} from '@switchboard/redis';
export type { OutgoingRequest, ServiceParametersHook } from './client/queue-calls.ts';
export type { QueueDepth } from './client/queue-depth.ts';
export { QueueDepthReader } from './client/queue-depth.ts';
export type { QueueTransportFactoryOptions } from './client/queue-transport-factory.ts';
export { QueueTransportFactory } from './client/queue-transport-factory.ts';
export type { ReplyInboxOptions } from './client/reply-inbox.ts';
export { ReplyInbox } from './client/reply-inbox.ts';
// errors
export type { QueueBindingErrorCode, QueueBindingErrorParty } from './errors.ts';
export { isQueueBindingError, QUEUE_BINDING_ERRORS, QueueBindingError } from './errors.ts';
// logging
export type { QueueLogger } from './logger.ts';
// server
export type { QueueDelivery, TaskStartedHook } from './server/delivery.ts';
export { queueDeliveryOf, TASK_STARTED_HOOK } from './server/delivery.ts';
export type { A2aQueueServerOptions } from './server/queue-server.ts';
export { A2aQueueServer } from './server/queue-server.ts';
export type { ReplyWriterOptions } from './server/reply-writer.ts';
export { ReplyWriter } from './server/reply-writer.ts';
export type { QueueAuthenticator, QueuePresented } from './server/serve-request.ts';
// wire
export type { JobEnvelope } from './wire/envelope.ts';
export { DEFAULT_MAX_REQUEST_BYTES } from './wire/envelope.ts';
export type { QueueAddress } from './wire/queue-url.ts';
export { BULLMQ_BINDING, defaultQueueAddress, parseQueueUrl, queueUrl } from './wire/queue-url.ts';
