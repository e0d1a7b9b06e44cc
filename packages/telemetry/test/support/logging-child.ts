// A process that logs to stdout with createLogger's default destination, and exits the moment the
// process that started it goes away, with a burst of lines still being written: what a service does
// when it drains after its parent died.
import { createLogger } from '../../src/logger.ts';

const logger = createLogger({ serviceName: 'logging-child' });
process.channel?.unref();
process.once('disconnect', () => {
  for (let line = 0; line < 20_000; line += 1) logger.info({ line, pad: 'x'.repeat(200) }, 'draining');
  process.exit(0);
});
setInterval(() => logger.info('working'), 10);
process.send?.('ready');
