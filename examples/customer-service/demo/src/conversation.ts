import { type CliResult, commandLine, runSwitchboard } from './switchboard-cli.ts';

/** Something the demo expected did not happen: the demo doubles as a smoke test, so it stops. */
export class DemoFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Text a command's output must hold, and what it is, for the failure message. */
export interface Expected {
  pattern: RegExp;
  what: string;
}

/** One `switchboard` command of the conversation and what it must do. */
export interface Step {
  args: readonly string[];
  /** The exit code it must end with. */
  code: number;
  /** Why that code, said when it ends with another, e.g. "the refund must wait for an approval". */
  because: string;
  /** Text the command itself prints whatever the model (ids, the CLI's own messages). */
  shows?: readonly Expected[];
  /** Text of the agents' answers, checked only on the offline planner (a real model words it its own way). */
  answers?: readonly Expected[];
  /** Run again (quietly, every 500 ms) up to this many times while it ends with another code. */
  attempts?: number;
}

/** Options of {@link Conversation}. */
export interface ConversationOptions {
  /** The environment of every command: the supervisor's URL and tokens, the span file. */
  env: NodeJS.ProcessEnv;
  /** Where every command runs: a folder whose `.switchboard/dev.json` names the system's callers. */
  cwd: string;
  /** Whether the agents' answers are known in advance (every agent on the offline planner). */
  offline: boolean;
  write: (text: string) => void;
  signal: AbortSignal;
}

/**
 * Plays `switchboard` commands one after another the way a person at a terminal would, printing
 * each command line and its real output, and checks each ended as the script expects.
 */
export class Conversation {
  /** How many commands ran. */
  commands = 0;
  readonly #options: ConversationOptions;
  #story: string | undefined;
  #step: { line: string; running: boolean } | undefined;

  constructor(options: ConversationOptions) {
    this.#options = options;
  }

  /** A line of narration. */
  say(text = ''): void {
    this.#options.write(`${text}\n`);
  }

  /** Starts a story: its title as a rule across the screen, remembered for {@link where}. */
  story(title: string): void {
    this.#story = title;
    this.#step = undefined;
    this.say(`── ${title} ${'─'.repeat(Math.max(3, 96 - title.length))}`);
    this.say();
  }

  /** Where the conversation is, for a failure message: the story, and the command it runs or ran last. */
  where(): string {
    const story = this.#story ? `in story "${this.#story}"` : 'before the first story';
    if (!this.#step) return story;
    return `${story}, ${this.#step.running ? 'running' : 'after'} \`${this.#step.line}\``;
  }

  /** Runs one command, shows it, and throws {@link DemoFailure} unless it did what `step` says. */
  async run(step: Step): Promise<CliResult> {
    const { env, cwd, offline, write, signal } = this.#options;
    const line = commandLine(step.args);
    const current = { line, running: true };
    this.#step = current;
    this.say(`$ ${line}`);
    const attempts = Math.max(1, step.attempts ?? 1);
    let result: CliResult | undefined;
    // A command that may be retried runs quietly, and only the run that counts is shown.
    const live = attempts === 1;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      result = await runSwitchboard({ args: step.args, env, cwd, signal, ...(live ? { write } : {}) });
      if (signal.aborted) throw new DemoFailure('Interrupted.');
      if (result.code === step.code || attempt === attempts) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    current.running = false;
    if (!result) throw new DemoFailure(`${line} did not run.`);
    if (!live) write(result.output);
    if (!result.output.endsWith('\n') && result.output) write('\n');
    this.say();
    this.commands++;
    if (result.timedOut) throw new DemoFailure(`${line} did not finish within 120 s.`);
    if (result.code !== step.code) {
      throw new DemoFailure(`${line} exited ${result.code}, but ${step.code} was expected: ${step.because}.`);
    }
    const expected = [...(step.shows ?? []), ...(offline ? (step.answers ?? []) : [])];
    const missing = expected.filter(({ pattern }) => !pattern.test(result.output));
    if (missing.length > 0) {
      throw new DemoFailure(`${line} did not show ${missing.map(({ what }) => what).join(', nor ')}.`);
    }
    return result;
  }
}

/** The first group of `pattern` in a command's output, or a {@link DemoFailure} naming `what`. */
export function capture(result: CliResult, pattern: RegExp, what: string): string {
  const found = pattern.exec(result.output)?.[1];
  if (!found) throw new DemoFailure(`The output did not show ${what}.`);
  return found;
}
