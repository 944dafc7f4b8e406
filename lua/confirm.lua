-- confirm.lua: re-affirm a reservation so that a WAIT sent right after it, on the same connection, counts the
-- replicas that hold the reservation. Only a QUEUED purchase runs it (refusals wait for nothing). WAIT counts the
-- writes of its own connection, and purchase.lua ran on another pooled one: rewriting the buyer's mark with the
-- same value is a write Redis replicates, after the reservation, so once a replica has this write it has the
-- reservation too. It also tells whether the reservation is still there (a failover between the two calls may
-- have lost it; then nothing is written).
--
-- KEYS[1] {sk:<sale>}:buyers  hash userId -> orderId
-- ARGV[1] userId
-- ARGV[2] orderId of the reservation
--
-- Returns 1 when the buyer's mark is this order (rewritten), 0 when it is absent or another order.
local buyers_key = KEYS[1]
local user, order_id = ARGV[1], ARGV[2]

if redis.call('HGET', buyers_key, user) ~= order_id then
  return 0
end
redis.call('HSET', buyers_key, user, order_id)
return 1
