-- confirm.lua: re-affirm reservations so that a WAIT sent right after it, on the same connection, counts the
-- replicas that hold them. Only QUEUED purchases run it (refusals wait for nothing), all the reserved buyers of one
-- purchase.lua call at once, so that one WAIT covers them. WAIT counts the writes of its own connection, and
-- purchase.lua ran on another pooled one: rewriting a buyer's mark with the same value is a write Redis replicates,
-- after the reservation, so once a replica has this write it has the reservation too. It also tells whether each
-- reservation is still there (a failover between the two calls may have lost it; then nothing is written for it).
--
-- KEYS[1]      {sk:<sale>}:buyers  hash userId -> orderId
-- ARGV[2i-1]   reservation i's userId
-- ARGV[2i]     reservation i's orderId
--
-- Returns one integer per reservation, in order: 1 when the buyer's mark is this order (rewritten), 0 when it is
-- absent or another order.
local buyers_key = KEYS[1]
local out = {}

for i = 1, #ARGV / 2 do
  local user, order_id = ARGV[2 * i - 1], ARGV[2 * i]
  if redis.call('HGET', buyers_key, user) == order_id then
    redis.call('HSET', buyers_key, user, order_id)
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
