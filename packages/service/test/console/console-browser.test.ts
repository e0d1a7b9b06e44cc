// The console in a real browser (Debian's chromium, driven by playwright-core; install it with
// scripts/ensure-chromium.sh, as `pnpm test` does) against a whole team on Redis.
import { silentLogger } from '@switchboard/agent';
import { connectTeam } from '@switchboard/delegate';
import type { InProcessTeam } from '@switchboard/team';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTeamInProcess } from '../../src/index.ts';
import travelDesk, { bookings } from '../team/travel-desk.ts';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HOSTILE =
  '<img src=x onerror="document.title=`pwned`"><script>document.title="pwned"</script>\u001b[2J\u202e';

let team: InProcessTeam | undefined;
let browser: Browser | undefined;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  team = await startTeamInProcess(travelDesk, { port: 0, logger: silentLogger(), redis: { url } });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await team?.stop();
  bookings.clear();
});

describe('the operators’ console in a browser', () => {
  it('an operator signs in, opens the waiting booking, sees what will run and who asked, approves it, and it runs once; hostile text stays text', async () => {
    if (!team || !browser) throw new Error('not started');
    const traveller = await connectTeam({
      url: team.access.supervisorUrl,
      token: team.access.users['traveller-1'] ?? '',
    });
    const booking = await traveller.ask(`Please book flight TP123 for me. ${HOSTILE}`);
    expect(booking.state).toBe('input-required');

    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });

    await page.goto(`${team.access.supervisorUrl}/console`);
    await expect.poll(() => page.url()).toMatch(/\/console\/sign-in$/);
    // A user's token signs nobody in.
    await page.fill('#token', team.access.users['traveller-1'] ?? '');
    await page.click('button[type=submit]');
    expect(await page.textContent('.notice')).toContain('not an operator’s token');

    await page.fill('#token', team.access.adminToken);
    await page.click('button[type=submit]');
    expect(await page.textContent('h1')).toBe('Waiting approvals');
    const cookies = await context.cookies();
    expect(cookies.find((cookie) => cookie.name === 'switchboard_console')).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
    });

    // Click 1: open the approval from the start page.
    await page.click('text=Open');
    expect(await page.textContent('.action')).toBe('Book a seat on flight TP123 for traveller-1');
    expect(await page.textContent('dl')).toContain('TP123');
    expect(await page.textContent('main')).toContain('Asked by user:traveller-1');
    const said = await page.locator('.message .text').first().textContent();
    expect(said).toContain(
      '<img src=x onerror="document.title=`pwned`"><script>document.title="pwned"</script>\\x1b[2J\\u202e',
    );
    expect(await page.locator('img').count()).toBe(0);
    // The one script is the console's own file.
    expect(
      await page
        .locator('script')
        .evaluateAll((scripts) => scripts.map((script) => script.getAttribute('src'))),
    ).toEqual(['/console/assets/live.js']);
    expect(bookings.size).toBe(0);

    // A second tab on the same approval, left alone: it follows the approval live.
    const watcher = await context.newPage();
    await watcher.goto(page.url());
    expect(await watcher.textContent('#task-state')).toBe('input-required');

    // Click 2: approve. The booking runs once.
    await page.click('button[value=approve]');
    expect(await page.textContent('.notice')).toContain('You approved it');
    await expect.poll(() => bookings.get('traveller-1'), { timeout: 20_000 }).toEqual(['TP123']);
    await expect
      .poll(async () => (await traveller.task(booking.taskId)).state, { timeout: 20_000 })
      .toBe('completed');

    // The tab left alone shows the decision and the task's end without a reload, and no form to decide.
    await expect.poll(() => watcher.textContent('#task-state'), { timeout: 20_000 }).toBe('completed');
    expect(await watcher.textContent('#decision')).toContain('approved by operator');
    expect(await watcher.locator('form.decide').count()).toBe(0);
    expect(await watcher.locator('#conversation .message').count()).toBeGreaterThan(1);

    // The back button and a second approve decide nothing more.
    await page.goBack();
    await page.reload();
    expect(await page.textContent('.decision')).toContain('approved by operator');
    await page.click('text=Decisions');
    expect(await page.textContent('main')).toContain('approved by operator');
    expect(bookings.get('traveller-1')).toEqual(['TP123']);

    // The requests: the traveller's booking with their words, completed; its page shows the conversation.
    await page.click('nav >> text=Requests');
    const row = page.locator('table.requests tr', { hasText: 'user:traveller-1' }).first();
    expect(await row.textContent()).toContain('completed');
    expect(await row.locator('a').textContent()).toContain('Please book flight TP123 for me. <img src=x');
    await page.fill('input[name=user]', 'traveller-2');
    await page.click('button:has-text("Filter")');
    expect(await page.textContent('main')).toContain('No request matches.');
    // The flights agent's side of it: the task the supervisor delegated, for the same user, and the
    // worker's own tool call.
    await page.fill('input[name=user]', 'traveller-1');
    await page.selectOption('select[name=agent]', 'flights');
    await page.click('button:has-text("Filter")');
    await page.locator('table.requests tr', { hasText: 'traveller-1' }).first().locator('a').click();
    expect(await page.textContent('main')).toContain('A task of flights, for user:traveller-1');
    expect(await page.locator('table.tool-calls tr', { hasText: 'book_flight' }).textContent()).toContain(
      'TP123',
    );
    // The approval's page links to its request.
    await page.click('nav >> text=Decisions');
    await page.locator('table a').first().click();
    await page.click('text=the request');
    expect(await page.textContent('#task-state')).toBe('completed');
    expect(await page.locator('#conversation .message').first().textContent()).toContain('\\x1b[2J\\u202e');
    // The delegation to the flights agent, with what was asked and what it answered.
    const delegation = page.locator('table.tool-calls tr', { hasText: 'flights_book_flight' });
    expect(await delegation.textContent()).toContain('booked: TP123');
    expect(await delegation.textContent()).toContain('Please book flight TP123 for me.');
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.title()).not.toContain('pwned');
    // Its trace page (this team's spans are not exported, so there is none to draw).
    await page.click('main >> text=Trace');
    expect(await page.textContent('h1')).toContain('Trace of request');
    expect(await page.textContent('main')).toContain('Back to the request');

    // The team: every agent with its replicas, its queue, which skills need an approval, card verdicts.
    await page.click('text=Team');
    expect(await page.locator('section.agent h2').allTextContents()).toEqual([
      'flights version 0.1.0',
      'supervisor version 0.1.0',
      'weather version 0.1.0',
    ]);
    const flights = page.locator('section.agent', { hasText: 'The flights agent.' });
    expect(await flights.locator('tr', { hasText: 'Book flight' }).textContent()).toContain(
      'needs an approval',
    );
    expect(await flights.locator('tr', { hasText: 'List bookings' }).textContent()).not.toContain('approval');
    expect(await flights.locator('.queue').textContent()).toBe('Queue: 0 waiting, 0 running, 0 to retry.');
    expect(await flights.locator('table.cards').textContent()).toContain('hybridvalid');
    expect(await flights.textContent()).toContain('Replicas (1)');

    // The shadow and evals pages of the production composition: nothing to show yet, and they say why.
    await page.click('nav >> text=Shadow');
    expect(await page.textContent('main')).toContain('No shadow pairs yet');
    await page.click('nav >> text=Evals');
    expect(await page.textContent('main')).toContain('set SWITCHBOARD_EVAL_REPORTS');
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});
