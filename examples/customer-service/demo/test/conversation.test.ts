import { describe, expect, it } from 'vitest';
import { Conversation, DemoFailure } from '../src/conversation.ts';

/** A conversation with the real CLI whose printed text is kept for the assertions. */
function conversation({ offline = true, env = {} }: { offline?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  let printed = '';
  const talk = new Conversation({
    env: { ...process.env, ...env },
    cwd: process.cwd(),
    offline,
    write: (text) => {
      printed += text;
    },
    signal: new AbortController().signal,
  });
  return { talk, printed: () => printed };
}

describe('a conversation with the switchboard CLI', () => {
  it('shows the command and its real output, and stops the demo when it exits with another code', async () => {
    const { talk, printed } = conversation({
      env: { SWITCHBOARD_URL: 'http://127.0.0.1:9', SWITCHBOARD_TOKEN: 'cust-not-a-real-token-1234' },
    });
    const asked = talk.run({
      args: ['ask', 'Where is my order A10086?'],
      code: 0,
      because: 'the supervisor should answer it',
    });
    await expect(asked).rejects.toThrow(DemoFailure);
    await expect(asked).rejects.toThrow(
      'switchboard ask "Where is my order A10086?" exited 1, but 0 was expected: the supervisor should answer it.',
    );
    expect(printed()).toContain('$ switchboard ask "Where is my order A10086?"\n');
    expect(printed()).toContain('Cannot reach the supervisor at http://127.0.0.1:9');
  });

  it('stops the demo when the output lacks what the script expects', async () => {
    const { talk } = conversation();
    await expect(
      talk.run({
        args: ['--help'],
        code: 0,
        because: 'help is always there',
        shows: [{ pattern: /Usage: switchboard/, what: 'the usage' }],
        answers: [{ pattern: /Blue Enamel Kettle/, what: 'the Blue Enamel Kettle' }],
      }),
    ).rejects.toThrow('switchboard --help did not show the Blue Enamel Kettle.');
  });

  it('leaves the wording of the answers to a real model', async () => {
    const { talk, printed } = conversation({ offline: false });
    const result = await talk.run({
      args: ['--help'],
      code: 0,
      because: 'help is always there',
      answers: [{ pattern: /Blue Enamel Kettle/, what: 'the Blue Enamel Kettle' }],
    });
    expect(result.code).toBe(0);
    expect(printed()).toMatch(/^\$ switchboard --help\nUsage: switchboard/);
    expect(talk.commands).toBe(1);
  });
});
