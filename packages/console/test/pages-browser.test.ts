// The trace, shadow and evals pages in a real browser (Debian's chromium, driven by playwright-core;
// scripts/ensure-chromium.sh installs it, as `pnpm test` does): the SVG draws under the strict CSP, and
// hostile text in span names, attributes and reports stays text.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileEvalsView, spanTraceView } from '../src/index.ts';
import { OPERATOR_TOKEN, startConsoleHost } from './support/console-host.ts';
import { SPANS, TASK } from './support/sample-spans.ts';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Markup that would change the page's title, or open a dialog, if it ever ran. */
const ACTIVE = '<img src=x onerror="document.title=`pwned`"><script>alert(1)</script>';

let dir = '';
let browser: Browser | undefined;
let running: Awaited<ReturnType<typeof startConsoleHost>> | undefined;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'console-browser-'));
  const spanFile = join(dir, 'spans.jsonl');
  const spans = SPANS.map((s) => (s.name === 'process a2a.orders' ? { ...s, name: `process ${ACTIVE}` } : s));
  await writeFile(spanFile, `${spans.map((s) => JSON.stringify(s)).join('\n')}\n`);
  const reports = join(dir, 'reports');
  await mkdir(reports);
  running = await startConsoleHost({
    email: { to: 'a@example.com', subject: 's', body: 'b' },
    pages: {
      trace: spanTraceView({ spanFile, service: 'mailer' }),
      evals: fileEvalsView({ reports }),
    },
  });
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await running?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the trace page in a browser', () => {
  it('draws the waterfall under the CSP, every span a bar with its tooltip, hostile names as text', async () => {
    if (!browser || !running) throw new Error('not started');
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.goto(`${running.consoleUrl}/sign-in`);
    await page.fill('#token', OPERATOR_TOKEN);
    await page.click('button[type=submit]');
    await page.goto(`${running.consoleUrl}/requests/${TASK}/trace`);

    expect(await page.locator('svg.waterfall rect.bar').count()).toBe(5);
    // The bars are drawn: the stylesheet colours them (no inline style, which the CSP refuses).
    const fill = await page.evaluate(
      "getComputedStyle(document.querySelector('svg.waterfall rect.bar')).fill",
    );
    expect(fill).toBe('rgb(78, 121, 167)');
    const box = await page.locator('svg.waterfall').boundingBox();
    expect(box?.width).toBeGreaterThan(500);
    const titles = await page.locator('svg.waterfall title').allTextContents();
    expect(titles).toContain(`orders · process ${ACTIVE} · 152 ms · ok`);
    expect(titles.some((title) => title.includes('\\x1b[31mred\\x1b[0m'))).toBe(true);
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.title()).not.toContain('pwned');
    expect(problems).toEqual([]);
  });
});

describe('the evals page in a browser', () => {
  it('says there is no report yet', async () => {
    if (!browser || !running) throw new Error('not started');
    const page = await browser.newPage();
    await page.goto(`${running.consoleUrl}/sign-in`);
    await page.fill('#token', OPERATOR_TOKEN);
    await page.click('button[type=submit]');
    await page.click('nav >> text=Evals');
    expect(await page.textContent('main')).toContain('No eval report yet');
  });
});
