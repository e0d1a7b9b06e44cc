import { randomUUID } from 'node:crypto';
import { type Part, Role, type SendMessageRequest } from '@a2a-js/sdk';

/** A SendMessage request carrying a user's text, in a conversation (`contextId`) when given. */
export function userRequest({
  text,
  contextId = '',
}: {
  text: string;
  contextId?: string;
}): SendMessageRequest {
  const part: Part = {
    content: { $case: 'text', value: text },
    mediaType: 'text/plain',
    filename: '',
    metadata: {},
  };
  return {
    tenant: '',
    message: {
      messageId: randomUUID(),
      role: Role.ROLE_USER,
      parts: [part],
      contextId,
      taskId: '',
      metadata: {},
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: {},
  };
}
