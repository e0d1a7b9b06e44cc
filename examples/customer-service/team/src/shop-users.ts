import { bundledShopFixture, DEFAULT_CUSTOMER, ShopFixture } from '@switchboard/customer-service';
import type { TeamUsers } from '@switchboard/team';

/** The customers of the bundled shop: who a local run can be used as, Ada Lovelace (C001) by default. */
export const SHOP_USERS: TeamUsers = {
  ids: ShopFixture.parse(bundledShopFixture()).customers.map((customer) => customer.id),
  defaultUser: DEFAULT_CUSTOMER,
};
