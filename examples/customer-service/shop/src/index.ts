// agents
export { actionKey, formatMoney } from './agents/action-key.ts';
export type { EmailDraft } from './agents/comms/apology-email.ts';
export { draftApologyEmail } from './agents/comms/apology-email.ts';
export type { CommsAgentOptions } from './agents/comms/comms-agent.ts';
export { COMMS_INSTRUCTIONS, createCommsAgent } from './agents/comms/comms-agent.ts';
export { COMMS_SKILLS } from './agents/comms/comms-skills.ts';
export { createCommsTools } from './agents/comms/comms-tools.ts';
export type { TicketCues } from './agents/comms/ticket.ts';
export { TICKET_INSTRUCTIONS, Ticket, ticketCues, ticketPrompt } from './agents/comms/ticket.ts';
export type { InventoryAgentOptions } from './agents/inventory/inventory-agent.ts';
export { createInventoryAgent, INVENTORY_INSTRUCTIONS } from './agents/inventory/inventory-agent.ts';
export { INVENTORY_SKILLS } from './agents/inventory/inventory-skills.ts';
export { createInventoryTools } from './agents/inventory/inventory-tools.ts';
export type { OrdersAgentOptions } from './agents/orders/orders-agent.ts';
export { createOrdersAgent, ORDERS_INSTRUCTIONS } from './agents/orders/orders-agent.ts';
export { ORDERS_SKILLS } from './agents/orders/orders-skills.ts';
export { createOrdersTools } from './agents/orders/orders-tools.ts';
export {
  SHOP_SUPERVISOR,
  SUPERVISOR_INSTRUCTIONS,
  supervisorSkills,
} from './agents/supervisor/supervisor-agent.ts';
// domain
export { addBusinessDays, estimateDeliveryDate, TRANSIT_BUSINESS_DAYS } from './domain/delivery-estimate.ts';
export type { MemoryShopStoreOptions } from './domain/memory-shop-store.ts';
export { MemoryShopStore } from './domain/memory-shop-store.ts';
export { ORDER_ID_FORMAT, OrderId } from './domain/order-id.ts';
export { matchProducts, productWords } from './domain/product-search.ts';
export type { RedisShopStoreOptions } from './domain/redis-shop-store.ts';
export { RedisShopStore } from './domain/redis-shop-store.ts';
export type { ReservationLimits } from './domain/reservation-limits.ts';
export { DEFAULT_RESERVATION_LIMITS } from './domain/reservation-limits.ts';
export type { ShopAccess } from './domain/shop-access.ts';
export {
  mayReserveStock,
  orderNotFoundMessage,
  reachesCustomer,
  recipientRefusedMessage,
  shopAccess,
} from './domain/shop-access.ts';
export type {
  AddressChangeResult,
  QueueEmailResult,
  RefundResult,
  ReserveResult,
} from './domain/shop-outcomes.ts';
export { assertNeverOutcome, isoDay, outcomes } from './domain/shop-outcomes.ts';
export {
  Address,
  Carrier,
  Colour,
  Currency,
  Customer,
  CustomerId,
  Money,
  Order,
  OrderItem,
  OrderStatus,
  OutboxEmail,
  Product,
  ProductCategory,
  Refund,
  Reservation,
  StockLevel,
} from './domain/shop-records.ts';
export type { ReserveInput, ShopData, ShopStore, StockedProduct } from './domain/shop-store.ts';
export type { RecipientRefused, ReserveRefused, ShopView } from './domain/shop-view.ts';
export { shopFor } from './domain/shop-view.ts';
export { SKU_FORMAT, Sku } from './domain/sku.ts';
// errors
export type { CustomerServiceErrorCode, CustomerServiceErrorParty } from './errors.ts';
export { CUSTOMER_SERVICE_ERRORS, CustomerServiceError, isCustomerServiceError } from './errors.ts';
// fixtures
export type { SeedShopOptions, SeedShopResult } from './fixtures/seed-shop.ts';
export { seedShop } from './fixtures/seed-shop.ts';
export {
  bundledShopFixture,
  DEFAULT_CUSTOMER,
  FixtureProduct,
  ShopFixture,
} from './fixtures/shop-fixture.ts';
