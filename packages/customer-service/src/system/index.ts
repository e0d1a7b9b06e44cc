export { DEFAULT_CUSTOMER } from '../fixtures/shop-fixture.ts';
export type {
  InProcessSystem,
  InProcessSystemOptions,
  SystemAccess,
} from './in-process-system.ts';
export { customerTokens, startInProcessSystem, tokensToIds } from './in-process-system.ts';
