import { randomUUID } from 'node:crypto';
import { actingForOwner } from '@switchboard/host/approvals';
import { RedisTaskDirectory, RedisTaskEventLog, RedisTaskStore } from '@switchboard/host/redis';
import { createRedisConnection } from '@switchboard/redis';
import { afterAll, describe, expect, it } from 'vitest';
import { csrfToken } from '../src/session/operator-session.ts';
import { OPERATOR_TOKEN, startConsoleHost } from './support/console-host.ts';

const redis = createRedisConnection({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
const prefix = `{console-progress:${randomUUID()}}`;
afterAll(async () => {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
  await redis.quit();
});

/** Reads a Server-Sent Events stream as text, up to what a test waits for. */
function sse(response: Response) {
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  let received = '';
  return {
    get received() {
      return received;
    },
    async until(text: string) {
      while (!received.includes(text)) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) throw new Error(`the stream ended before "${text}": ${received}`);
        received += chunk.value;
      }
    },
    async rest() {
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) return received;
        received += chunk.value;
      }
    },
  };
}

describe('a request’s page shows its progress from the task’s event stream, live', () => {
  it('draws what the run said so far, then each line as it is published, and goes on after Last-Event-ID', async () => {
    const eventLog = new RedisTaskEventLog({ redis, prefix });
    const running = await startConsoleHost({
      email: { to: 'bob@example.com', subject: 'Hi \u001b[31mBob', body: 'Hello' },
      stores: {
        // Owners as a service keeps them: the console's decision resumes the task in its owner's scope.
        taskStore: new RedisTaskStore({ redis, prefix, ownerResolver: actingForOwner() }),
        directory: new RedisTaskDirectory({ redis, prefix }),
        eventLog,
      },
    });
    try {
      await running.ask('Send Bob a hello.');
      const [asked] = await new RedisTaskDirectory({ redis, prefix }).recent({ limit: 1 });
      const taskId = asked?.task.id ?? '';
      const signedIn = await fetch(`${running.consoleUrl}/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: new URL(running.url).origin },
        body: new URLSearchParams({ token: OPERATOR_TOKEN }).toString(),
      });
      const cookie = signedIn.headers.getSetCookie()[0]?.split(';')[0] ?? '';
      const page = await (
        await fetch(`${running.consoleUrl}/requests/${taskId}`, { headers: { Cookie: cookie } })
      ).text();
      // What the run said so far, in order, every text inert.
      const drawn = [...page.matchAll(/<li data-position="(\d+)">.*?<span class="text">([^<]*)/gs)];
      expect(drawn.map((match) => match[2]?.split('\n')[0])).toEqual([
        'Step 1: thinking',
        'Step 1: running send_email',
        'Step 1: send_email waits for an approval',
        'This needs an operator’s approval before I can go on:',
      ]);
      expect(page).toContain('Send the email “Hi \\x1b[31mBob”');
      expect(page).not.toContain('\u001b');
      const last = Number(drawn.at(-1)?.[1]);
      expect(page).toContain(`data-events="/console/requests/${taskId}/events?after=${last}"`);

      // The page's stream goes on after the last line drawn: the operator approves, the run says so.
      const events = `${running.consoleUrl}/requests/${taskId}/events`;
      const live = sse(await fetch(`${events}?after=${last}`, { headers: { Cookie: cookie } }));
      await live.until('"state":"input-required"');
      expect(live.received).not.toContain('event: progress');
      const [approval] = await running.board.list({ status: 'pending' });
      const decided = await fetch(`${running.consoleUrl}/approvals/${approval?.id}/decide`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          Cookie: cookie,
          Origin: new URL(running.url).origin,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ csrf: csrfToken(OPERATOR_TOKEN), decision: 'approve' }).toString(),
      });
      expect(decided.status).toBe(303);
      const streamed = await live.rest();
      const lines = [...streamed.matchAll(/event: progress\nid: (\d+)\ndata: (.*)\n/g)];
      const texts = lines.map((match) => JSON.parse(match[2] ?? '{}').text);
      expect(texts).toContain('Step 1: send_email succeeded');
      expect(lines.every((match) => Number(match[1]) > last)).toBe(true);
      expect(streamed).toContain('"state":"completed"');
      expect(streamed.trimEnd().endsWith('event: end\ndata: {}')).toBe(true);

      // A browser that reconnects says where it was: nothing it has is sent again.
      const newest = Number(lines.at(-1)?.[1]);
      const again = await sse(
        await fetch(events, { headers: { Cookie: cookie, 'Last-Event-ID': String(newest) } }),
      ).rest();
      expect(again).not.toContain('event: progress');
      const bad = await fetch(`${events}?after=soon`, { headers: { Cookie: cookie } });
      expect(bad.status).toBe(400);
      expect(await bad.text()).toContain('must be a position');
    } finally {
      await running.close();
    }
  });
});
