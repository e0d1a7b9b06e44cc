// The vocabulary both sides of an A2A call share: message builders, metadata keys, terminal task states,
// the card's permissions extension and skills, the wire shapes of the operators' admin API, and which
// characters of what a user wrote must never act on a terminal.

export {
  AdminErrorBody,
  ApprovalList,
  ApprovalReply,
  ApprovalTaskReply,
  BoardApproval,
  BoardStatus,
  boardEntry,
  DecisionReply,
} from './admin-api.ts';
export { boardDeciderOf, markDecidedOnBoard } from './board-delivery.ts';
export type { CallVariables } from './call-state.ts';
export { callVariable, DECIDED_ON_BOARD, setCallVariable } from './call-state.ts';
export { controlCharacterIn, isControlCharacter } from './control-characters.ts';
export { inert } from './inert-text.ts';
export {
  agentMessage,
  dataPart,
  readMessage,
  sendMessageRequest,
  textPart,
  userMessage,
} from './messages.ts';
export {
  APPROVAL_DECISION_KEY,
  CALLER_CONVERSATION_KEY,
  CONVERSATION_KEY,
  COST_KEY,
  DELEGATED_SKILL_KEY,
  EVENT_POSITION_KEY,
  PRINCIPAL_KEY,
  PROGRESS_KEY,
  STREAM_END_KEY,
  TRANSIENT_KEY,
} from './metadata-keys.ts';
export {
  PERMISSIONS_EXTENSION_URI,
  PermissionManifest,
  permissionsExtension,
} from './permissions-extension.ts';
export type { SkillSpec } from './skill-spec.ts';
export { cardSkills, highestRisk, skillProblems } from './skill-spec.ts';
export { ANSWER_ARTIFACT, answerOf, replyTextOf } from './task-answer.ts';
export type { TaskCostReading } from './task-cost.ts';
export { readTaskCost } from './task-cost.ts';
export { TERMINAL_TASK_STATES } from './task-states.ts';
