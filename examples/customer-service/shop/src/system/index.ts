export { DEFAULT_CUSTOMER } from '../fixtures/shop-fixture.ts';
export type { CustomerDatum, CustomerFootprint } from './customer-footprints.ts';
export { customerFootprints } from './customer-footprints.ts';
export type {
  InProcessSystem,
  InProcessSystemOptions,
  SystemAccess,
} from './in-process-system.ts';
export { customerTokens, startInProcessSystem, tokensToIds } from './in-process-system.ts';
