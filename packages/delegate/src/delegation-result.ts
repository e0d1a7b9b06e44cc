import { type Part, type StreamResponse, TaskState } from '@a2a-js/sdk';
import { ApprovalRequest } from '@switchboard/agent';
import { ANSWER_ARTIFACT, readTaskCost, type TaskCostReading } from '@switchboard/protocol';
import { z } from 'zod';

/** What a delegate's task came to, as read from its stream of events. */
export interface DelegateOutcome {
  taskId: string;
  contextId: string;
  state: TaskState;
  /** The answer artifact's text, else the last status message's text. */
  answer: string;
  /** Approvals the delegate waits for (input-required). */
  pendingApprovals: ApprovalRequest[];
  /** What the delegate's run cost, its own delegations included, as its task's last word said. */
  cost: TaskCostReading;
}

const PendingApprovals = z.object({ pendingApprovals: z.array(ApprovalRequest) });

const textOf = (parts: readonly Part[]) =>
  parts
    .flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : []))
    .join('\n')
    .trim();

function approvalsOf(parts: readonly Part[]): ApprovalRequest[] {
  return parts.flatMap((part) => {
    if (part.content?.$case !== 'data') return [];
    const parsed = PendingApprovals.safeParse(part.content.value);
    return parsed.success ? parsed.data.pendingApprovals : [];
  });
}

/** The progress line of a delegate whose task went to work without saying anything more. */
const WORKING_ON_IT = 'Working on it';

/** Folds a delegate's stream events into its outcome; `onStatus` sees each working status text. */
export class DelegateStream {
  #outcome: DelegateOutcome = {
    taskId: '',
    contextId: '',
    state: TaskState.TASK_STATE_UNSPECIFIED,
    answer: '',
    pendingApprovals: [],
    cost: { kind: 'none' },
  };
  #artifact = '';

  readonly #onStatus: (text: string) => void;

  constructor(onStatus: (text: string) => void) {
    this.#onStatus = onStatus;
  }

  get outcome(): DelegateOutcome {
    return { ...this.#outcome, answer: this.#artifact || this.#outcome.answer };
  }

  read(event: StreamResponse): void {
    const payload = event.payload;
    if (!payload) return;
    const o = this.#outcome;
    switch (payload.$case) {
      case 'task': {
        const task = payload.value;
        Object.assign(o, {
          taskId: task.id,
          contextId: task.contextId,
          state: task.status?.state ?? o.state,
        });
        this.#cost(task.metadata);
        const artifact = task.artifacts.find((a) => a.name === ANSWER_ARTIFACT);
        if (artifact) this.#artifact = textOf(artifact.parts);
        if (task.status?.message) this.#status(task.status.state, task.status.message.parts);
        // A Switchboard agent's task goes to work without a status line: its state says it.
        else if (task.status?.state === TaskState.TASK_STATE_WORKING) this.#onStatus(WORKING_ON_IT);
        return;
      }
      case 'statusUpdate': {
        const { status, taskId, contextId, metadata } = payload.value;
        Object.assign(o, { taskId, contextId, state: status?.state ?? o.state });
        this.#cost(metadata);
        if (status?.message) this.#status(status.state, status.message.parts);
        return;
      }
      case 'artifactUpdate':
        if (payload.value.artifact?.name === ANSWER_ARTIFACT)
          this.#artifact = textOf(payload.value.artifact.parts);
        return;
      case 'message':
        o.answer = textOf(payload.value.parts);
        o.state = TaskState.TASK_STATE_COMPLETED;
        return;
    }
  }

  /** The cost the delegate's final event (or its task, read whole) carries; the last one read counts. */
  #cost(metadata: Readonly<Record<string, unknown>> | undefined): void {
    const reading = readTaskCost(metadata);
    if (reading.kind !== 'none') this.#outcome.cost = reading;
  }

  #status(state: TaskState, parts: readonly Part[]): void {
    const text = textOf(parts);
    if (state === TaskState.TASK_STATE_WORKING) {
      if (text) this.#onStatus(text);
      return;
    }
    this.#outcome.answer = text;
    this.#outcome.pendingApprovals = approvalsOf(parts);
  }
}
