// agents
export { actionKey, formatMoney } from './agents/action-key.js';
export { AgentSkill } from './agents/agent-skill.js';
export type { EmailDraft } from './agents/comms/apology-email.js';
export { draftApologyEmail } from './agents/comms/apology-email.js';
export type { CommsAgentOptions } from './agents/comms/comms-agent.js';
export { COMMS_INSTRUCTIONS, createCommsAgent } from './agents/comms/comms-agent.js';
export { COMMS_SKILLS } from './agents/comms/comms-skills.js';
export { createCommsTools } from './agents/comms/comms-tools.js';
export type { TicketCues } from './agents/comms/ticket.js';
export { TICKET_INSTRUCTIONS, Ticket, ticketCues, ticketPrompt } from './agents/comms/ticket.js';
export type { InventoryAgentOptions } from './agents/inventory/inventory-agent.js';
export { createInventoryAgent, INVENTORY_INSTRUCTIONS } from './agents/inventory/inventory-agent.js';
export { INVENTORY_SKILLS } from './agents/inventory/inventory-skills.js';
export { createInventoryTools } from './agents/inventory/inventory-tools.js';
export type { OrdersAgentOptions } from './agents/orders/orders-agent.js';
export { createOrdersAgent, ORDERS_INSTRUCTIONS } from './agents/orders/orders-agent.js';
export { ORDERS_SKILLS } from './agents/orders/orders-skills.js';
export { createOrdersTools } from './agents/orders/orders-tools.js';
export {
  createSupervisorAgent,
  SUPERVISOR_INSTRUCTIONS,
  supervisorSkills,
} from './agents/supervisor/supervisor-agent.js';
// domain
export { addBusinessDays, estimateDeliveryDate, TRANSIT_BUSINESS_DAYS } from './domain/delivery-estimate.js';
export type { MemoryShopStoreOptions } from './domain/memory-shop-store.js';
export { MemoryShopStore } from './domain/memory-shop-store.js';
export { ORDER_ID_FORMAT, OrderId } from './domain/order-id.js';
export { matchProducts, productWords } from './domain/product-search.js';
export type { RedisShopStoreOptions } from './domain/redis-shop-store.js';
export { RedisShopStore } from './domain/redis-shop-store.js';
export type {
  AddressChangeResult,
  QueueEmailResult,
  RefundResult,
  ReserveResult,
} from './domain/shop-outcomes.js';
export { assertNeverOutcome, isoDay, outcomes } from './domain/shop-outcomes.js';
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
} from './domain/shop-records.js';
export type { ShopData, ShopStore, StockedProduct } from './domain/shop-store.js';
export { SKU_FORMAT, Sku } from './domain/sku.js';
// errors
export type { CustomerServiceErrorCode, CustomerServiceErrorParty } from './errors.js';
export { CUSTOMER_SERVICE_ERRORS, CustomerServiceError, isCustomerServiceError } from './errors.js';
// fixtures
export type { SeedShopOptions, SeedShopResult } from './fixtures/seed-shop.js';
export { seedShop } from './fixtures/seed-shop.js';
export { bundledShopFixture, FixtureProduct, ShopFixture } from './fixtures/shop-fixture.js';
