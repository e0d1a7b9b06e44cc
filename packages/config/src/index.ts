// Reading Switchboard's settings from an environment (what a service, the launcher and the CLI share):
// Redis, the model, secrets. Every problem is named with its variable and how to fix it.
export type { ConfigProblem } from './config-error.ts';
export { ConfigError } from './config-error.ts';
export { createModel } from './create-model.ts';
export {
  HttpUrl,
  Millis,
  Port,
  RedisUrl,
  SecretToken,
  Switch,
  TokenList,
  WholeNumber,
} from './env-values.ts';
export type { ModelConfig } from './model-config.ts';
export { DEFAULT_OPENAI_MODEL, readModelConfig } from './model-config.ts';
export { readRedisConfig } from './redis-config.ts';
export {
  estimateSecretBits,
  MAKE_A_SECRET,
  MIN_SECRET_BITS,
  placeholderProblem,
  secretProblem,
} from './secret-strength.ts';
