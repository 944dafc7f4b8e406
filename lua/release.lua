-- release.lua: give back the unit of an order that expired unpaid, at most once per order id.
-- The buyer keeps their mark (the issue's policy: a lapsed buyer gets no second attempt in that sale); the order id
-- joins the sale's returned set in the same step as the unit, so a retry, a second service instance or a rerun
-- after a crash finds it there and changes nothing.
--
-- KEYS[1] {sk:<sale>}:stock     remaining units
-- KEYS[2] {sk:<sale>}:buyers    hash userId -> orderId
-- KEYS[3] {sk:<sale>}:returned  set of order ids whose unit came back
-- KEYS[4] {sk:<sale>}:unsent    hash userId -> "<orderId>:<ms>": a failed send's entry; an expired order was
--                               written, so its entry (the first send did land) goes, and no retry resends it
-- ARGV[1] userId
-- ARGV[2] orderId that expired
--
-- Returns:
--   n >= 1  RETURNED: the unit is back on sale; n is the remaining stock after it (1: it was sold out until now)
--    0      ALREADY: this order's unit came back before; nothing changed
--   -1      NOT_HELD: the buyer's mark is not this order (Redis lost it, or a failed publish undid it); nothing
--           changed, reconcile counts the order from the database
--   -2      MISSING: the sale's stock key is gone; nothing changed, reconcile rebuilds the sale from the database
local stock_key, buyers_key, returned_key, unsent_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local user, order_id = ARGV[1], ARGV[2]

if redis.call('EXISTS', stock_key) == 0 then
  return -2
end
if redis.call('SISMEMBER', returned_key, order_id) == 1 then
  return 0
end
if redis.call('HGET', buyers_key, user) ~= order_id then
  return -1
end
redis.call('SADD', returned_key, order_id)
local unsent = redis.call('HGET', unsent_key, user)
if unsent and string.match(unsent, '^(%d+):') == order_id then
  redis.call('HDEL', unsent_key, user)
end
return redis.call('INCR', stock_key)
