/**
 * Screenshots of the operators' console for docs/console.md: boots the real team (a process per
 * service on Redis, spans to a span file, a shadow beside the orders agent, eval reports from
 * `switchboard eval`), plays a few requests (an order question, a stock question, a refund that
 * waits for an approval), signs in to the console in Debian's chromium (driven by playwright-core,
 * which never downloads a browser) and writes a PNG of each main page to docs/images/console-*.png.
 *
 * Run it with `pnpm --filter @switchboard/demo screenshots` (Redis at REDIS_URL, default
 * redis://127.0.0.1:6379; CHROMIUM_PATH names another browser binary).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { silentLogger } from '@switchboard/agent';
import { bootSystem, REPO_ROOT } from '@switchboard/cli';
import { customerServiceTeam } from '@switchboard/customer-service-team';
import { connectTeam } from '@switchboard/delegate';
import { chromium, type Page } from 'playwright-core';
import { clearNamespace } from '../src/demo-namespace.ts';
import { REQUESTS } from '../src/stories.ts';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const namespace = 'console-screenshots';
const images = join(REPO_ROOT, 'docs', 'images');
const baseline = join(REPO_ROOT, 'examples', 'customer-service', 'evals', 'baseline.json');
const cli = join(REPO_ROOT, 'packages', 'cli', 'bin', 'switchboard.mjs');

/** Runs `switchboard eval` (every suite, in process, the offline model) and writes its report. */
async function evalReport(out: string): Promise<void> {
  await promisify(execFile)(process.execPath, [cli, 'eval', '--out', out], {
    cwd: REPO_ROOT,
    env: process.env,
  });
}

/** Waits until the span file holds a span of the task (services send their spans in batches of up to 5 s). */
async function spansOf(spanFile: string, taskId: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const text = await readFile(spanFile, 'utf8').catch(() => '');
    if (text.includes(`"a2a.task.id":"${taskId}"`)) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`No span of task ${taskId} reached ${spanFile} in 30 s.`);
}

async function shoot(page: Page, url: string, name: string): Promise<void> {
  await page.goto(url);
  await page.screenshot({ path: join(images, `console-${name}.png`) });
  console.log(`wrote docs/images/console-${name}.png (${await page.title()})`);
}

async function main(): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-screenshots-'));
  const spanFile = join(dir, 'spans.jsonl');
  const reports = join(dir, 'reports');
  await mkdir(reports);
  await mkdir(images, { recursive: true });
  console.log('Running switchboard eval twice for the evals page…');
  await evalReport(join(reports, 'run-1.json'));
  await evalReport(join(reports, 'run-2.json'));
  await clearNamespace({ redisUrl, namespace });
  console.log('Starting the team…');
  const system = await bootSystem({
    redisUrl,
    namespace,
    port: 4600,
    team: customerServiceTeam,
    resetData: true,
    baseEnv: process.env,
    env: {
      SWITCHBOARD_SPAN_FILE: spanFile,
      SWITCHBOARD_EVAL_REPORTS: reports,
      SWITCHBOARD_EVAL_BASELINE: baseline,
      // The orders agent's shadow: a candidate that gets a copy of every new request.
      ORDERS_SHADOW_CANDIDATE: 'prompt-v2',
      ORDERS_SHADOW_SHARE: '1',
    },
    restart: false,
    logger: silentLogger(),
  });
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  try {
    const { access } = system;
    const traveller = await connectTeam({ url: access.supervisorUrl, token: access.token });
    const order = await traveller.ask(REQUESTS.order);
    await traveller.ask(REQUESTS.stock);
    await traveller.ask(REQUESTS.othersOrder);
    const refund = await traveller.ask(REQUESTS.refund);
    if (refund.state !== 'input-required') throw new Error(`The refund is ${refund.state}, not waiting.`);
    await spansOf(spanFile, order.taskId);

    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const consoleUrl = `${access.supervisorUrl}/console`;
    await page.goto(consoleUrl);
    await page.fill('#token', access.adminToken);
    await page.click('button[type=submit]');
    await shoot(page, `${consoleUrl}/`, 'approvals');
    await page.click('text=Open');
    await shoot(page, page.url(), 'approval');
    await shoot(page, `${consoleUrl}/requests`, 'requests');
    await shoot(page, `${consoleUrl}/requests/${encodeURIComponent(order.taskId)}`, 'request');
    await shoot(page, `${consoleUrl}/requests/${encodeURIComponent(order.taskId)}/trace`, 'trace');
    await shoot(page, `${consoleUrl}/team`, 'team');
    await shoot(page, `${consoleUrl}/costs`, 'costs');
    await shoot(page, `${consoleUrl}/shadow`, 'shadow');
    await shoot(page, `${consoleUrl}/evals`, 'evals');
    return 0;
  } finally {
    await browser.close();
    await system.stop();
    await clearNamespace({ redisUrl, namespace });
    await rm(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
