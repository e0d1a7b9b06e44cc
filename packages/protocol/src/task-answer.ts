import type { Artifact, Part, Task } from '@a2a-js/sdk';

/**
 * The name of the artifact that holds a completed task's answer. The answer is written there once:
 * a completed task's final status carries no message (see docs/conformance.md, "One answer").
 */
export const ANSWER_ARTIFACT = 'answer';

const textOf = (parts: readonly Part[]) =>
  parts.flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : [])).join('');

/** The text of the `answer` artifact, when there is one. */
export function answerOf(artifacts: readonly Artifact[]): string | undefined {
  const answer = artifacts.find((artifact) => artifact.name === ANSWER_ARTIFACT);
  return answer ? textOf(answer.parts) : undefined;
}

/**
 * What a task says to whoever reads it: its answer (the `answer` artifact) when it has one, else its
 * status message's text (a question, a refusal, why it failed), else `''`.
 *
 * @example
 * const task = await client.getTask({ id, historyLength: 0, tenant: '' });
 * console.log(replyTextOf(task));
 */
export function replyTextOf(task: Pick<Task, 'artifacts' | 'status'>): string {
  return answerOf(task.artifacts) ?? textOf(task.status?.message?.parts ?? []);
}
