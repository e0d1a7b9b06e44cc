import type { SendMessageRequest } from '@a2a-js/sdk';
import { PushNotificationNotSupportedError } from '@a2a-js/sdk/errors';
import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import { decorateHandler } from '../decorate-handler.ts';

/** What a caller reads when it asks for push notifications of an agent that sends none. */
export const PUSH_NOT_SUPPORTED_MESSAGE =
  'Push notifications are not supported by this agent (its card says so); leave out configuration.taskPushNotificationConfig and follow the task with SubscribeToTask or GetTask.';

/**
 * Refuses a message that asks for push notifications (`configuration.taskPushNotificationConfig`, in
 * v0.3 `configuration.pushNotificationConfig`) when the agent's card says it sends none, with the A2A
 * `PushNotificationNotSupportedError` (JSON-RPC -32003, REST 400), before anything runs: the SDK
 * would otherwise drop the setting silently and the caller wait for a notification that never comes.
 * The push-notification config methods are refused by the SDK itself the same way.
 *
 * @example
 * const handler = refusePushSettings({ handler: inner });
 */
export function refusePushSettings({ handler }: { handler: A2ARequestHandler }): A2ARequestHandler {
  let pushOn: Promise<boolean> | undefined;
  const check = async (params: unknown): Promise<void> => {
    if ((params as SendMessageRequest | undefined)?.configuration?.taskPushNotificationConfig === undefined) {
      return;
    }
    pushOn ??= handler.getAgentCard().then((card) => card.capabilities?.pushNotifications === true);
    if (!(await pushOn)) throw new PushNotificationNotSupportedError({ message: PUSH_NOT_SUPPORTED_MESSAGE });
  };
  return decorateHandler(handler, {
    unary: async (method, params, _call, run) => {
      if (method === 'sendMessage') await check(params);
      return run();
    },
    stream: async function* (method, params, _call, open) {
      if (method === 'sendMessageStream') await check(params);
      yield* open();
    },
  });
}
