// The yardstick for the conformance kit: a plain agent on @a2a-js/sdk alone (the version Switchboard's
// a2a package pins), built like the SDK's own sample agent, so a kit failure that this server shares is
// the SDK's (or the kit's), not Switchboard's. JSON-RPC at /a2a/jsonrpc and HTTP+JSON at /a2a/rest on
// one DefaultRequestHandler, tasks in memory, no auth. Every message gets a task that goes working,
// gets one text artifact and completes; a cancel before then cancels it.
//
//   node scripts/conformance/reference-server.mjs <port>      (run-tck.sh --reference starts it)
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// The SDK and express as the a2a package resolves them (scripts/ is no workspace package).
const resolveFromA2a = createRequire(join(root, 'packages', 'a2a', 'package.json'));
const load = (specifier) => import(pathToFileURL(resolveFromA2a.resolve(specifier)).href);
const { default: express } = await load('express');
const { Role, TaskState } = await load('@a2a-js/sdk');
const { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } = await load('@a2a-js/sdk/server');
const { UserBuilder, agentCardHandler, jsonRpcHandler, restHandler } = await load(
  '@a2a-js/sdk/server/express',
);

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  console.error('usage: node scripts/conformance/reference-server.mjs <port>');
  process.exit(2);
}
const base = `http://127.0.0.1:${port}`;

const card = {
  name: 'SDK reference agent',
  description: 'A plain @a2a-js/sdk agent to compare conformance-kit results with.',
  version: '1.0.0',
  supportedInterfaces: [
    { url: `${base}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
    { url: `${base}/a2a/rest`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' },
  ],
  capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [
    {
      id: 'reply',
      name: 'Reply',
      description: 'Answers every message with one text artifact.',
      tags: ['reference'],
      examples: [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    },
  ],
  signatures: [],
};

const now = () => new Date().toISOString();
const textPart = (value) => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});

class ReplyExecutor {
  canceled = new Set();

  cancelTask = async (taskId) => {
    this.canceled.add(taskId);
  };

  async execute(context, bus) {
    const { taskId, contextId, userMessage } = context;
    const status = (state, message) =>
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state, message, timestamp: now() },
        metadata: {},
      });
    bus.publish(
      AgentEvent.task(
        context.task ?? {
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, timestamp: now() },
          artifacts: [],
          history: [userMessage],
          metadata: userMessage.metadata,
        },
      ),
    );
    bus.publish(status(TaskState.TASK_STATE_WORKING));
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (this.canceled.delete(taskId)) {
      bus.publish(status(TaskState.TASK_STATE_CANCELED));
      return;
    }
    const artifact = {
      artifactId: randomUUID(),
      name: 'Result',
      description: '',
      parts: [textPart('Done.')],
      metadata: {},
      extensions: [],
    };
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact,
        append: false,
        lastChunk: true,
        metadata: {},
      }),
    );
    const reply = {
      role: Role.ROLE_AGENT,
      messageId: randomUUID(),
      parts: [textPart('Done.')],
      taskId,
      contextId,
      extensions: [],
      metadata: {},
      referenceTaskIds: [],
    };
    bus.publish(status(TaskState.TASK_STATE_COMPLETED, reply));
  }
}

const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new ReplyExecutor());
const userBuilder = UserBuilder.noAuthentication;
const app = express();
app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: requestHandler }));
app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder }));
app.use('/a2a/rest', restHandler({ requestHandler, userBuilder }));
const server = app.listen(port, '127.0.0.1', () => console.log(`SDK reference agent on ${base}`));
const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
