/**
 * The atomic actions of `RedisShopStore`, as Lua scripts. Each returns `{ outcome, payload }`:
 * `replayed` with the stored result when the idempotency key was seen before, else what happened.
 * Results stored under an idempotency key are JSON written by the script or by the caller.
 */

/** KEYS: order, idempotency, refunds list. ARGV: idempotency key, now (ISO), new refund id. */
export const REFUND_ORDER = `
local prior = redis.call('GET', KEYS[2])
if prior then return {'replayed', prior} end
local raw = redis.call('GET', KEYS[1])
if not raw then return {'order_not_found', ''} end
local order = cjson.decode(raw)
if order.status == 'refunded' then return {'already_refunded', tostring(order.refundedOn)} end
local refund = cjson.encode({
  refundId = ARGV[3], orderId = order.id, amount = order.total, currency = order.currency,
  refundedAt = ARGV[2], idempotencyKey = ARGV[1]
})
order.status = 'refunded'
order.refundedOn = ARGV[2]
redis.call('SET', KEYS[1], cjson.encode(order))
redis.call('SET', KEYS[2], refund)
redis.call('RPUSH', KEYS[3], refund)
return {'refunded', refund}
`;

/** KEYS: order, idempotency. ARGV: the change as JSON `{ orderId, shippingAddress }`. */
export const UPDATE_ADDRESS = `
local prior = redis.call('GET', KEYS[2])
if prior then return {'replayed', prior} end
local raw = redis.call('GET', KEYS[1])
if not raw then return {'order_not_found', ''} end
local order = cjson.decode(raw)
if order.status ~= 'processing' then return {'already_shipped', tostring(order.status)} end
order.shippingAddress = cjson.decode(ARGV[1]).shippingAddress
redis.call('SET', KEYS[1], cjson.encode(order))
redis.call('SET', KEYS[2], ARGV[1])
return {'updated', ARGV[1]}
`;

/** KEYS: stock hash, idempotency, reservations list. ARGV: SKU, quantity, the reservation as JSON. */
export const RESERVE_STOCK = `
local prior = redis.call('GET', KEYS[2])
if prior then return {'replayed', prior} end
local units = redis.call('HGET', KEYS[1], ARGV[1])
if not units then return {'product_not_found', ''} end
local quantity = tonumber(ARGV[2])
if tonumber(units) < quantity then return {'insufficient_stock', units} end
local left = redis.call('HINCRBY', KEYS[1], ARGV[1], -quantity)
local result = '{"unitsLeft":' .. left .. ',"reservation":' .. ARGV[3] .. '}'
redis.call('SET', KEYS[2], result)
redis.call('RPUSH', KEYS[3], ARGV[3])
return {'reserved', result}
`;

/** KEYS: idempotency, a list. ARGV: the record as JSON. Appends it once per idempotency key. */
export const APPEND_ONCE = `
local prior = redis.call('GET', KEYS[1])
if prior then return {'replayed', prior} end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('RPUSH', KEYS[2], ARGV[1])
return {'appended', ARGV[1]}
`;
