import { costOf } from '@switchboard/agent';
import { MemoryCostBook } from '@switchboard/host';
import { afterEach, describe, expect, it } from 'vitest';
import { csrfToken } from '../src/session/operator-session.ts';
import { type Email, OPERATOR_TOKEN, startConsoleHost, USER_TOKEN } from './support/console-host.ts';

const HOSTILE = {
  to: 'ops@example.com"><img src=x onerror=alert(1)>',
  subject: 'Refund \u001b[31mNOW\u001b[0m \u202eevil',
  body: '<script>alert("body")</script>\nline two\u0007',
} satisfies Email;

let running: Awaited<ReturnType<typeof startConsoleHost>> | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = 'application/x-www-form-urlencoded';

async function signIn(consoleUrl: string, token: string, origin = new URL(consoleUrl).origin) {
  return fetch(`${consoleUrl}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': FORM, Origin: origin },
    body: form({ token }),
  });
}

/** The session cookie a sign-in set, as a browser sends it back. */
function cookieOf(response: Response): string {
  const [cookie] = response.headers.getSetCookie();
  return cookie?.split(';')[0] ?? '';
}

async function waitingApproval(r: NonNullable<typeof running>, text: string) {
  await r.ask(text);
  const [approval] = await r.board.list({ status: 'pending' });
  if (!approval) throw new Error('no approval waits');
  return approval;
}

describe('the console signs in operators only, with the admin API’s identities', () => {
  it('sends a browser without a session to sign in, under a strict Content-Security-Policy', async () => {
    running = await startConsoleHost({ email: HOSTILE });
    const start = await fetch(`${running.consoleUrl}/`, { redirect: 'manual' });
    expect(start.status).toBe(303);
    expect(start.headers.get('location')).toBe('/console/sign-in');
    const signInPage = await fetch(`${running.consoleUrl}/sign-in`);
    const csp = signInPage.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(signInPage.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await signInPage.text()).not.toContain(OPERATOR_TOKEN);
  });

  it('refuses a user’s token and no token; an operator’s sets an HttpOnly SameSite=Strict cookie', async () => {
    running = await startConsoleHost({ email: HOSTILE });
    for (const token of [USER_TOKEN, '', 'not-a-token']) {
      const refused = await signIn(running.consoleUrl, token);
      expect(refused.status).toBe(401);
      expect(refused.headers.getSetCookie()).toEqual([]);
      expect(await refused.text()).toContain('not an operator’s token');
    }
    // A user's token as the cookie, set by hand, opens nothing either.
    const asUser = await fetch(`${running.consoleUrl}/`, {
      redirect: 'manual',
      headers: { Cookie: `switchboard_console=${USER_TOKEN}` },
    });
    expect(asUser.status).toBe(303);
    expect(asUser.headers.get('location')).toBe('/console/sign-in');

    const signedIn = await signIn(running.consoleUrl, OPERATOR_TOKEN);
    expect(signedIn.status).toBe(303);
    const [cookie] = signedIn.headers.getSetCookie();
    expect(cookie).toMatch(/^switchboard_console=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/console/);
    // Plain HTTP on loopback (dev): a Secure cookie would never come back.
    expect(cookie).not.toMatch(/; Secure/i);
    const start = await fetch(`${running.consoleUrl}/`, { headers: { Cookie: cookieOf(signedIn) } });
    expect(start.status).toBe(200);
    const page = await start.text();
    expect(page).toContain('Signed in as <b>ada</b>');
    expect(page).not.toContain(OPERATOR_TOKEN);
  });

  it('refuses an address that keeps failing to sign in for the rest of the minute, the right token too', async () => {
    running = await startConsoleHost({ email: HOSTILE });
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await signIn(running.consoleUrl, `guess-${attempt}`)).status).toBe(401);
    }
    const limited = await signIn(running.consoleUrl, OPERATOR_TOKEN);
    expect(limited.status).toBe(429);
    expect(limited.headers.getSetCookie()).toEqual([]);
    expect(limited.headers.get('ratelimit-policy')).toContain('q=10; w=60');
    expect(await limited.text()).toContain('Too many failed sign-ins from here. Wait a minute');
  });

  it('says when there is no list of requests (a host without a task directory)', async () => {
    running = await startConsoleHost({ email: HOSTILE });
    const cookie = cookieOf(await signIn(running.consoleUrl, OPERATOR_TOKEN));
    const requests = await fetch(`${running.consoleUrl}/requests`, { headers: { Cookie: cookie } });
    expect(requests.status).toBe(200);
    expect(await requests.text()).toContain('keeps no directory of its tasks');
  });

  it('marks the cookie Secure when told the public URL is https (a proxy ends TLS)', async () => {
    running = await startConsoleHost({ email: HOSTILE, secureCookie: true });
    const [cookie] = (await signIn(running.consoleUrl, OPERATOR_TOKEN)).headers.getSetCookie();
    expect(cookie).toMatch(/; Secure/i);
  });

  it('refuses a sign-in posted from another site', async () => {
    running = await startConsoleHost({ email: HOSTILE });
    const forged = await signIn(running.consoleUrl, OPERATOR_TOKEN, 'https://evil.example');
    expect(forged.status).toBe(403);
    expect(forged.headers.getSetCookie()).toEqual([]);
  });
});

describe('deciding in the console', () => {
  it('a forged cross-site request decides nothing; the console’s own form decides once, and the email is sent once', async () => {
    running = await startConsoleHost({ email: { to: 'bob@example.com', subject: 'Hello', body: 'Hi Bob' } });
    const approval = await waitingApproval(running, 'Send Bob a hello.');
    const cookie = cookieOf(await signIn(running.consoleUrl, OPERATOR_TOKEN));
    const origin = new URL(running.consoleUrl).origin;
    const decide = (headers: Record<string, string>, fields: Record<string, string>) =>
      fetch(`${running?.consoleUrl}/approvals/${encodeURIComponent(approval.id)}/decide`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': FORM, Cookie: cookie, ...headers },
        body: form(fields),
      });
    const csrf = csrfToken(OPERATOR_TOKEN);
    // Another site's form: wrong origin (even with the right token), no token, a wrong token, no cookie.
    expect((await decide({ Origin: 'https://evil.example' }, { csrf, decision: 'approve' })).status).toBe(
      403,
    );
    expect((await decide({ 'Sec-Fetch-Site': 'cross-site' }, { csrf, decision: 'approve' })).status).toBe(
      403,
    );
    expect((await decide({ Origin: origin }, { decision: 'approve' })).status).toBe(403);
    expect((await decide({ Origin: origin }, { csrf: 'x'.repeat(43), decision: 'approve' })).status).toBe(
      403,
    );
    expect((await decide({ Origin: origin, Cookie: '' }, { csrf, decision: 'approve' })).status).toBe(401);
    expect((await running.board.get(approval.id))?.status).toBe('pending');
    expect(running.sent).toEqual([]);

    const approved = await decide({ Origin: origin }, { csrf, decision: 'approve', reason: 'checked' });
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toContain('done=approved');
    await expect.poll(() => running?.sent.length, { timeout: 10_000 }).toBe(1);
    expect(await running.board.get(approval.id)).toMatchObject({
      status: 'approved',
      decidedBy: 'ada',
      reason: 'checked',
    });

    const again = await decide({ Origin: origin }, { csrf, decision: 'approve' });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('already approved by ada');
    expect(running.sent).toHaveLength(1);
    const history = await (
      await fetch(`${running.consoleUrl}/history`, { headers: { Cookie: cookie } })
    ).text();
    expect(history).toContain('approved by ada');
  });
});

describe('what users and models wrote is inert text', () => {
  it('shows an email’s recipient, subject and body as text: no markup, no escape sequence, no override', async () => {
    running = await startConsoleHost({ email: HOSTILE });
    const approval = await waitingApproval(
      running,
      'Email ops <b>now</b> <script>alert("user")</script>\u001b]0;pwned\u0007',
    );
    const cookie = cookieOf(await signIn(running.consoleUrl, OPERATOR_TOKEN));
    const list = await (await fetch(`${running.consoleUrl}/`, { headers: { Cookie: cookie } })).text();
    const detail = await (
      await fetch(`${running.consoleUrl}/approvals/${encodeURIComponent(approval.id)}`, {
        headers: { Cookie: cookie },
      })
    ).text();
    for (const page of [list, detail]) {
      for (const banned of ['<img', '\u001b', '\u202e', '\u0007']) expect(page).not.toContain(banned);
      expect(page).toContain('Refund \\x1b[31mNOW\\x1b[0m \\u202eevil');
    }
    // The one script of a page is the console's own.
    expect(list).not.toContain('<script');
    expect(detail.match(/<script/g)).toHaveLength(1);
    expect(detail).toContain('<script src="/console/assets/live.js" defer></script>');
    expect(detail).toContain('ops@example.com&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(detail).toContain('&lt;script&gt;alert(&quot;body&quot;)&lt;/script&gt;\nline two\\x07');
    expect(detail).toContain(
      'Email ops &lt;b&gt;now&lt;/b&gt; &lt;script&gt;alert(&quot;user&quot;)&lt;/script&gt;\\x1b]0;pwned\\x07',
    );
    expect(detail).toContain('u-1');
  });
});

describe('the costs page', () => {
  it('shows the cost book’s days per agent and in total, a peer’s agent name as text; without a book it says so', async () => {
    const costBook = new MemoryCostBook();
    const entry = (agent: string, n: number) => ({
      agent,
      tokensIn: 100 * n,
      tokensOut: 10 * n,
      modelMs: 40 * n,
      toolMs: 5 * n,
      queueWaitMs: 2 * n,
      hops: 1,
    });
    await costBook.record({
      taskId: 't1',
      at: new Date(),
      cost: costOf([entry('supervisor', 1), entry('<img src=x onerror=alert(1)>\u001b[2J', 2)]),
    });
    running = await startConsoleHost({ email: HOSTILE, costBook });
    const cookie = cookieOf(await signIn(running.consoleUrl, OPERATOR_TOKEN));
    const page = await (await fetch(`${running.consoleUrl}/costs`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain('<a href="/console/costs">Costs</a>');
    expect(page).toMatch(/<h2>\d{4}-\d{2}-\d{2} · 1 request<\/h2>/);
    for (const banned of ['<img', '\u001b']) expect(page).not.toContain(banned);
    expect(page).toContain(
      '<tr><td>&lt;img src=x onerror=alert(1)&gt;\\x1b[2J</td><td class="number">200</td><td class="number">20</td>',
    );
    expect(page).toContain(
      '<tr><th>Total</th><td class="number">300</td><td class="number">30</td><td class="number">120</td><td class="number">15</td><td class="number">6</td><td class="number">2</td></tr>',
    );
    // A period it does not offer is said, not replaced by another.
    const odd = await fetch(`${running.consoleUrl}/costs?days=5`, { headers: { Cookie: cookie } });
    expect(odd.status).toBe(400);
    expect(await odd.text()).toContain('There is no period of “5” days: pick 1, 7, 14, 31, 93.');
    expect((await fetch(`${running.consoleUrl}/costs?days=93`, { headers: { Cookie: cookie } })).status).toBe(
      200,
    );
    await running.close();

    running = await startConsoleHost({ email: HOSTILE });
    const signedIn = cookieOf(await signIn(running.consoleUrl, OPERATOR_TOKEN));
    const none = await (await fetch(`${running.consoleUrl}/costs`, { headers: { Cookie: signedIn } })).text();
    expect(none).toContain('This service keeps no cost book, so there are no cost totals to show.');
  });
});

describe('an approval’s page follows it live', () => {
  it('streams what the page shows as it changes, to signed-in operators only, and ends once the task has', async () => {
    running = await startConsoleHost({
      email: { to: 'bob@example.com', subject: 'Hello', body: '<b>Hi</b> Bob' },
    });
    const approval = await waitingApproval(running, 'Send Bob a hello.');
    const events = `${running.consoleUrl}/approvals/${encodeURIComponent(approval.id)}/events`;
    expect((await fetch(events, { redirect: 'manual' })).status).toBe(303);

    const cookie = cookieOf(await signIn(running.consoleUrl, OPERATOR_TOKEN));
    const stream = await fetch(events, { headers: { Cookie: cookie } });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = stream.body?.pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    const until = async (text: string) => {
      while (!received.includes(text)) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) throw new Error(`the stream ended before "${text}": ${received}`);
        received += chunk.value;
      }
    };
    await until('"state":"input-required"');
    expect(received).toContain('"status":"pending"');

    const origin = new URL(running.consoleUrl).origin;
    await fetch(`${running.consoleUrl}/approvals/${encodeURIComponent(approval.id)}/decide`, {
      method: 'POST',
      headers: { 'Content-Type': FORM, Cookie: cookie, Origin: origin },
      body: form({ csrf: csrfToken(OPERATOR_TOKEN), decision: 'approve' }),
    });
    await until('"state":"completed"');
    await until('event: end');
    expect(received).toContain('This approval is approved by ada');
    expect(received).toContain('{"who":"agent","text":"Sent."}');
    expect(running.sent).toHaveLength(1);
  });
});
