import { TaskState } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Supervisor, startSupervisor } from './supervisor-host.ts';
import { hasStack, switchboard } from './support.ts';

let supervisor: Supervisor;
beforeAll(async () => {
  supervisor = await startSupervisor();
});
afterAll(async () => {
  await supervisor.close();
});

const run = (args: string[]) => switchboard(args, supervisor.env, { cwd: supervisor.cwd });

describe('switchboard tasks', () => {
  it('gets a task: state, status, answer and history length, readable and as JSON; a finished task cannot be canceled', async () => {
    const asked = JSON.parse((await run(['ask', '--json', 'Where is order A10086?'])).stdout) as {
      taskId: string;
    };
    const readable = await run(['tasks', 'get', asked.taskId]);
    expect(readable.code).toBe(0);
    expect(readable.stdout).toContain(`Task ${asked.taskId}: completed`);
    expect(readable.stdout).toMatch(/^History: \d+ messages$/m);
    expect(readable.stdout).toMatch(/^Order A10086 has shipped with DHL\.$/m);

    const json = await run(['tasks', 'get', asked.taskId, '--json']);
    expect(json.code).toBe(0);
    const task = JSON.parse(json.stdout) as {
      taskId: string;
      state: string;
      answer: string;
      historyLength: number;
      task: { id: string; status: { state: string } };
    };
    expect(task).toMatchObject({
      taskId: asked.taskId,
      state: 'completed',
      answer: 'Order A10086 has shipped with DHL.',
    });
    expect(task.historyLength).toBeGreaterThan(0);
    expect(task.task).toMatchObject({ id: asked.taskId, status: { state: 'TASK_STATE_COMPLETED' } });

    const cancel = await run(['tasks', 'cancel', asked.taskId]);
    expect(cancel.code).toBe(1);
    expect(cancel.stderr).toBe(
      `Task ${asked.taskId} cannot be canceled: it has already finished (completed).\n`,
    );
  });

  it('cancels a running task: the ask that waits on it ends canceled (exit 1); a second cancel is refused (exit 1)', async () => {
    const asking = run(['ask', 'Wait for the warehouse on A10086']);
    await supervisor.waitStarted;
    const unfinished = [TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING];
    const running = (await supervisor.tasks()).find((task) => unfinished.includes(task.status?.state ?? 0));
    if (!running) throw new Error('the warehouse task is not listed');
    const canceled = await run(['tasks', 'cancel', running.id]);
    expect(canceled.code).toBe(0);
    expect(canceled.stdout).toContain(`Task ${running.id} is canceled.`);

    const asked = await asking;
    expect(asked.code).toBe(1);
    expect(asked.stdout).toMatch(/^ {2}> Step 1: running wait_for_warehouse$/m);
    expect(asked.stdout).toMatch(/^The task was canceled: /m);
    expect(asked.stdout).toContain(`Task: ${running.id} (canceled)`);

    const again = await run(['tasks', 'cancel', running.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      new RegExp(`^Task ${running.id} cannot be canceled: it has already finished \\(canceled`),
    );
  });

  it('says when there is no such task (exit 1, no stack trace)', async () => {
    const { code, stderr } = await run(['tasks', 'get', 'no-such-task']);
    expect(code).toBe(1);
    expect(stderr).toContain('The supervisor has no task no-such-task you can see');
    expect(hasStack(stderr)).toBe(false);
  });
});
