// The A2A span attributes, one owner: the binding's spans and hosting's SERVER and CLIENT spans
// describe a call the same way (`@switchboard/a2a` imports these instead of writing its own).
export {
  errorType,
  messageAttributes,
  recordCallFailure,
  recordFailure,
  requestAttributes,
  resultAttributes,
  streamEventAttributes,
} from './span-attributes.ts';
