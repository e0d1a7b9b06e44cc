import type { Command } from 'commander';
import { approvalsDecide } from './commands/approvals-decide.ts';
import { approvalsList, parseListLimit } from './commands/approvals-list.ts';
import { approvalsShow } from './commands/approvals-show.ts';
import { askCommand } from './commands/ask.ts';
import { tasksCancel } from './commands/tasks-cancel.ts';
import { tasksGet } from './commands/tasks-get.ts';
import type { CliConfig } from './config.ts';
import { EXIT, type Output } from './io/output.ts';

const URL_HELP = 'the supervisor’s base URL (default: SWITCHBOARD_URL, then .switchboard/dev.json)';
const TOKEN_HELP = 'a user’s bearer token (default: SWITCHBOARD_TOKEN, then .switchboard/dev.json)';
const AS_HELP =
  'act as another caller of the local stack: a user id (e.g. traveller-1) or "operator" (tokens from .switchboard/dev.json)';
const ADMIN_TOKEN_HELP =
  'an operator’s admin token (default: SWITCHBOARD_ADMIN_TOKEN, then .switchboard/dev.json)';

const EXIT_HELP = `
Exit codes: 0 done, 1 the task failed or was refused (or the supervisor is unreachable),
2 usage or settings (a missing or refused token), 3 waiting for a human (an approval).`;

/** Adds the commands that talk to a running supervisor: `ask`, `tasks` and `approvals`. */
export function addSupervisorCommands({
  program,
  config,
  output,
  exit,
}: {
  program: Command;
  config: CliConfig;
  output: Output;
  exit: { code: number };
}): void {
  program
    .command('ask')
    .description(
      'Ask the supervisor agent: shows progress as it happens, then the answer, task, context and trace.',
    )
    .argument('<request>', 'what to ask, e.g. "Where is my order?"')
    .option('--context <contextId>', 'continue a conversation (the context id an earlier ask printed)')
    .option('--no-stream', 'send one blocking request instead of streaming progress')
    .option(
      '--json',
      'print one JSON object: taskId, contextId, state, answer, pendingApprovals, traceId, progress',
      false,
    )
    .option('--url <url>', URL_HELP)
    .option('--token <token>', TOKEN_HELP)
    .option('--as <who>', AS_HELP)
    .addHelpText('after', EXIT_HELP)
    .action(
      async (
        request: string,
        options: {
          context?: string;
          stream: boolean;
          json: boolean;
          url?: string;
          token?: string;
          as?: string;
        },
      ) => {
        exit.code = await askCommand({
          request,
          contextId: options.context,
          json: options.json,
          stream: options.stream,
          url: options.url,
          token: options.token,
          as: options.as,
          env: config.env,
          jaegerUrl: config.jaegerUrl,
          output,
        });
      },
    );

  const tasks = program.command('tasks').description('Look at and cancel the supervisor’s tasks.');
  tasks
    .command('get')
    .description('Where a task stands: state, last status, answer, pending approvals, history length.')
    .argument('<taskId>', 'the task id an ask printed')
    .option('--json', 'print the task as JSON', false)
    .option('--url <url>', URL_HELP)
    .option('--token <token>', TOKEN_HELP)
    .option('--as <who>', AS_HELP)
    .action(async (taskId: string, options: { json: boolean; url?: string; token?: string; as?: string }) => {
      exit.code = await tasksGet({ taskId, ...options, env: config.env, output });
    });
  tasks
    .command('cancel')
    .description('Cancel a working or waiting task (exit 1 if it has already finished).')
    .argument('<taskId>', 'the task id an ask printed')
    .option('--json', 'print the result as JSON', false)
    .option('--url <url>', URL_HELP)
    .option('--token <token>', TOKEN_HELP)
    .option('--as <who>', AS_HELP)
    .action(async (taskId: string, options: { json: boolean; url?: string; token?: string; as?: string }) => {
      exit.code = await tasksCancel({ taskId, ...options, env: config.env, output });
    });

  const approvals = program
    .command('approvals')
    .description('List and decide the dangerous actions that wait for a human (the supervisor’s admin API).');
  approvals
    .command('list')
    .description('The approvals as a table: id, agent, action, requested at, status or decider.')
    .option('--all', 'pending and decided approvals', false)
    .option('--decided', 'only approved or denied approvals', false)
    .option('--full', 'each approval whole, with every argument its call will run with', false)
    .option('--json', 'print { approvals: [...], nextCursor? } as JSON', false)
    .option('--limit <n>', 'one page of at most n approvals (1 to 500; default: every page)')
    .option('--cursor <cursor>', 'the page that starts where the previous one ended (its nextCursor)')
    .option('--url <url>', URL_HELP)
    .option('--token <token>', ADMIN_TOKEN_HELP)
    .action(
      async (options: {
        all: boolean;
        decided: boolean;
        full: boolean;
        json: boolean;
        limit?: string;
        cursor?: string;
        url?: string;
        token?: string;
      }) => {
        if (options.all && options.decided) {
          output.err('Give --all or --decided, not both.');
          exit.code = EXIT.usage;
          return;
        }
        const limit = options.limit === undefined ? undefined : parseListLimit(options.limit);
        if (typeof limit === 'object') {
          output.err(limit.problem);
          exit.code = EXIT.usage;
          return;
        }
        exit.code = await approvalsList({
          status: options.all ? 'all' : options.decided ? 'decided' : 'pending',
          json: options.json,
          full: options.full,
          limit,
          cursor: options.cursor,
          url: options.url,
          token: options.token,
          env: config.env,
          output,
        });
      },
    );
  approvals
    .command('show')
    .description(
      'One approval whole: what the agent wants to do, who asked, and every argument its call will run with (an email’s whole body).',
    )
    .argument('<approvalId>', 'the approval id (apr_…) that ask or approvals list printed')
    .option('--json', 'print { approval } as JSON', false)
    .option('--url <url>', URL_HELP)
    .option('--token <token>', ADMIN_TOKEN_HELP)
    .action(async (id: string, options: { json: boolean; url?: string; token?: string }) => {
      exit.code = await approvalsShow({ id, ...options, env: config.env, output });
    });
  for (const decision of ['approve', 'deny'] as const) {
    approvals
      .command(decision)
      .description(
        `${decision === 'approve' ? 'Approve' : 'Deny'} a pending approval; then wait for the task and print its answer.`,
      )
      .argument('<approvalId>', 'the approval id (apr_…) that ask or approvals list printed')
      .option('--reason <text>', 'why, recorded with the decision and told to the agent')
      .option('--no-wait', 'do not wait for the task; print its id and return')
      .option('--timeout <seconds>', 'how long to wait for the task', '60')
      .option('--json', 'print the approval, the task id and where the task ended as JSON', false)
      .option('--url <url>', URL_HELP)
      .option('--token <token>', ADMIN_TOKEN_HELP)
      .addHelpText(
        'after',
        `${EXIT_HELP}\nThe admin token is all it needs: waiting reads the task through the admin API.`,
      )
      .action(
        async (
          id: string,
          options: {
            reason?: string;
            wait: boolean;
            timeout: string;
            json: boolean;
            url?: string;
            token?: string;
          },
        ) => {
          exit.code = await approvalsDecide({
            id,
            decision,
            ...options,
            reason: options.reason,
            env: config.env,
            output,
          });
        },
      );
  }
}
