-- sent.lua: forget a buyer's unsent entry once its order is in Kafka (a resend was acknowledged) or in the database
-- (reconcile found it written). Only the entry of this order goes: a newer one, after a release and a new
-- reservation, stays.
--
-- KEYS[1] {sk:<sale>}:unsent  hash userId -> "<orderId>:<ms of the last send attempt>"
-- ARGV[1] userId
-- ARGV[2] orderId that was sent
--
-- Returns 1 when it removed the entry, 0 when there was none for this order.
local unsent_key = KEYS[1]
local user, order_id = ARGV[1], ARGV[2]

local unsent = redis.call('HGET', unsent_key, user)
if not unsent or string.match(unsent, '^(%d+):') ~= order_id then
  return 0
end
redis.call('HDEL', unsent_key, user)
return 1
