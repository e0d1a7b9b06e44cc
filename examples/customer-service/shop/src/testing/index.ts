export type { ShopTestToolsOptions } from './shop-test-tools.ts';
export { shopTestTools } from './shop-test-tools.ts';
