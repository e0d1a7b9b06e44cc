export type {
  InProcessSystem,
  InProcessSystemOptions,
  SystemAccess,
} from './in-process-system.ts';
export { startInProcessSystem } from './in-process-system.ts';
