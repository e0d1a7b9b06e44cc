export type {
  InProcessSystem,
  InProcessSystemOptions,
  SystemAccess,
} from './in-process-system.js';
export { startInProcessSystem } from './in-process-system.js';
