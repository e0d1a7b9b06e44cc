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

// Puts the units of reservations expired by now (ms) back in the stock (KEYS[1] stock hash,
// KEYS[2] active reservations), at most 500 a call; each holder's own set drops them when read.
const RELEASE_EXPIRED = `
local function release(stock, active, now)
  for _, member in ipairs(redis.call('ZRANGEBYSCORE', active, '-inf', now, 'LIMIT', 0, 500)) do
    local item = cjson.decode(member)
    redis.call('HINCRBY', stock, item.sku, item.quantity)
    redis.call('ZREM', active, member)
  end
end
`;

/** KEYS: stock hash, active reservations. ARGV: now (ms). Returns expired reservations to the stock. */
export const RELEASE_STOCK = `${RELEASE_EXPIRED}
release(KEYS[1], KEYS[2], ARGV[1])
return {'released', ''}
`;

/**
 * KEYS: stock hash, idempotency, reservations list, active reservations, the holder's set.
 * ARGV: SKU, quantity, the reservation as JSON, now (ms), its expiry (ms), units per product, units
 * in all, its active member (JSON: id, sku, quantity), how long the holder's set is kept (s). Releases expired reservations first; then a
 * reservation beyond the holder's limits is refused, in the same step as it would be made.
 */
export const RESERVE_STOCK = `${RELEASE_EXPIRED}
release(KEYS[1], KEYS[4], ARGV[4])
local prior = redis.call('GET', KEYS[2])
if prior then return {'replayed', prior} end
local units = redis.call('HGET', KEYS[1], ARGV[1])
if not units then return {'product_not_found', ''} end
local quantity = tonumber(ARGV[2])
if tonumber(units) < quantity then return {'insufficient_stock', units} end
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', ARGV[4])
local ofProduct, inAll = 0, 0
for _, member in ipairs(redis.call('ZRANGE', KEYS[5], 0, -1)) do
  local item = cjson.decode(member)
  inAll = inAll + item.quantity
  if item.sku == ARGV[1] then ofProduct = ofProduct + item.quantity end
end
if ofProduct + quantity > tonumber(ARGV[6]) then return {'limit_product', tostring(ofProduct)} end
if inAll + quantity > tonumber(ARGV[7]) then return {'limit_total', tostring(inAll)} end
local left = redis.call('HINCRBY', KEYS[1], ARGV[1], -quantity)
local result = '{"unitsLeft":' .. left .. ',"reservation":' .. ARGV[3] .. '}'
redis.call('SET', KEYS[2], result)
redis.call('RPUSH', KEYS[3], ARGV[3])
redis.call('ZADD', KEYS[4], ARGV[5], ARGV[8])
redis.call('ZADD', KEYS[5], ARGV[5], ARGV[8])
-- The holder's set lasts as long as their newest reservation (Redis' own clock, so relative).
redis.call('EXPIRE', KEYS[5], ARGV[9])
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
