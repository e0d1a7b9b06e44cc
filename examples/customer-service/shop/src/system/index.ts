export { DEFAULT_CUSTOMER } from '../fixtures/shop-fixture.ts';
export type { CustomerDatum, CustomerFootprint } from './customer-footprints.ts';
export { customerFootprints } from './customer-footprints.ts';
