-- compensate.lua: undo a purchase whose order never reached Kafka. Idempotent: it acts only while the buyer's
-- recorded order id is the one being undone, so a second call, or a call for another order, changes nothing.
--
-- KEYS[1] {sk:<sale>}:stock   remaining units
-- KEYS[2] {sk:<sale>}:buyers  hash userId -> orderId
-- ARGV[1] userId
-- ARGV[2] orderId to undo
--
-- Returns the remaining stock after the undo (>= 1), or -1 when there was nothing to undo.
local stock_key, buyers_key = KEYS[1], KEYS[2]
local user, order_id = ARGV[1], ARGV[2]

if redis.call('HGET', buyers_key, user) ~= order_id then
  return -1
end
redis.call('HDEL', buyers_key, user)
return redis.call('INCR', stock_key)
