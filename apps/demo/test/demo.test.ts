import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ScriptedModel, startOpenAICompatibleServer } from '@switchboard/agent/testing';
import { describe, expect, it } from 'vitest';

const appDir = fileURLToPath(new URL('..', import.meta.url));
const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.startsWith('SWITCHBOARD_')),
) as NodeJS.ProcessEnv;

/** Runs the demo as a user would, in a child process. */
function runDemo(args: string[], env: NodeJS.ProcessEnv = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      tsx,
      ['src/main.ts', ...args],
      { cwd: appDir, env: { ...cleanEnv, ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('the demo', () => {
  it('answers one request on the offline model and prints the answer, the steps and the tool calls', async () => {
    const { code, stdout } = await runDemo([]);
    expect(code).toBe(0);
    expect(stdout).toContain('Model: offline planner (deterministic, no network, not an LLM');
    expect(stdout).toContain('Request: Where is my order A10086 and when will it arrive?');
    expect(stdout).toMatch(/Answer\n {2}.*A10086.*carrier: DHL, estimated delivery: 2026-12-01/);
    expect(stdout).toMatch(/Steps \(2, stopped by: model\)/);
    expect(stdout).toMatch(/Tool calls \(1\)\n {2}estimate_delivery\(\{"orderId":"A10086"\}\) -> succeeded/);
  });

  it('stops a refund for an operator instead of running it', async () => {
    const { code, stdout } = await runDemo(['Please refund order A10086, it arrived broken']);
    expect(code).toBe(0);
    expect(stdout).toContain('stopped by: approval');
    expect(stdout).toContain(
      'Refund order A10086 in full (59.9 EUR) to the original payment method. This cannot be undone.',
    );
    expect(stdout).toMatch(/refund_order\(\{"orderId":"A10086"\}\) -> awaiting_approval/);
    expect(stdout).not.toContain('refunded');
  });

  it('runs on any OpenAI-compatible endpoint when SWITCHBOARD_MODEL and a base URL are set', async () => {
    const scripted = new ScriptedModel({
      turns: [
        { toolCalls: [{ name: 'get_order', arguments: { orderId: 'A10087' } }] },
        { text: 'Order A10087 (a blender and a spare jug) is still being prepared; UPS will pick it up.' },
      ],
    });
    const server = await startOpenAICompatibleServer({
      model: scripted,
      apiKey: 'sk-test-demo-key-0123456789',
    });
    try {
      const { code, stdout } = await runDemo(['What is in order A10087?'], {
        SWITCHBOARD_MODEL: 'qwen-plus',
        SWITCHBOARD_MODEL_BASE_URL: server.baseURL,
        SWITCHBOARD_MODEL_API_KEY: 'sk-test-demo-key-0123456789',
      });
      expect(code).toBe(0);
      expect(stdout).toContain(`Model: qwen-plus at ${server.baseURL}`);
      expect(stdout).toContain('Order A10087 (a blender and a spare jug) is still being prepared');
      expect(server.requests.map((request) => request.model)).toEqual(['qwen-plus', 'qwen-plus']);
      for (const request of server.requests) {
        expect(request.tools?.map((tool) => tool.function.name)).toEqual([
          'get_order',
          'estimate_delivery',
          'refund_order',
        ]);
      }
      expect(JSON.stringify(server.requests[1]?.messages.at(-1))).toContain('Blender');
    } finally {
      await server.close();
    }
  });

  it('refuses a wrong configuration with a message naming the variable', async () => {
    const { code, stderr, stdout } = await runDemo([], { SWITCHBOARD_MODEL_BASE_URL: 'localhost:11434' });
    expect(code).toBe(2);
    expect(stderr).toContain('Invalid configuration:');
    expect(stderr).toContain(
      'SWITCHBOARD_MODEL_BASE_URL must be an http(s) URL such as http://127.0.0.1:11434/v1',
    );
    expect(stdout).not.toContain('Answer');
  });

  it('refuses a model name without a way to reach it', async () => {
    const { code, stderr } = await runDemo([], { SWITCHBOARD_MODEL: 'gpt-4.1-mini' });
    expect(code).toBe(2);
    expect(stderr).toContain('SWITCHBOARD_MODEL_API_KEY is required to call gpt-4.1-mini');
  });
});
