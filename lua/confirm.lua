-- confirm.lua: whether each reservation of a purchase.lua call is there, and for those that are not, a fence that no
-- late copy of that call can cross. Two callers, one question:
--
-- * After a purchase.lua call whose answer was lost (a timeout, a closed connection): the call may have run, or may
--   still run (its bytes stalled in a socket, or Redisson resent it), so the service asks whose mark is its attempt's
--   order. An order found without its mark is FENCED in the same atomic step: its attempt answers 503 "nothing held
--   for you", and purchase.lua refuses that order id from then on (FENCED), so a copy that arrives late cannot take
--   a unit no client was told about. A buyer's own retry is a new attempt with a new order id, never fenced.
-- * With replica acks, for the reservations of a call: WAIT sent right after this script, on the same connection,
--   counts the replicas that hold them. WAIT counts the writes of its own connection, and purchase.lua ran on
--   another pooled one: rewriting a buyer's mark with the same value is a write Redis replicates, after the
--   reservation, so once a replica has this write it has the reservation too. A reservation gone (a failover
--   between the two calls lost it) is fenced as above: its purchase answers 503 without an order too.
--
-- KEYS[1]      {sk:<sale>}:buyers  hash userId -> orderId
-- KEYS[2]      {sk:<sale>}:fenced  sorted set orderId by when it was fenced (epoch ms)
-- ARGV[1]      now (epoch ms; the service's clock)
-- ARGV[2]      how long a fence is kept (ms): past any late copy of the call, then trimmed
-- ARGV[2i+1]   reservation i's userId
-- ARGV[2i+2]   reservation i's orderId
--
-- Returns one integer per reservation, in order: 1 when the buyer's mark is this order (rewritten), 0 when it is
-- absent or another order (the order id is now fenced; the mark is untouched).
local buyers_key, fenced_key = KEYS[1], KEYS[2]
local now, keep = tonumber(ARGV[1]), tonumber(ARGV[2])
if #ARGV < 2 or #ARGV % 2 ~= 0 then
  return redis.error_reply('confirm.lua: now, keep, then (userId, orderId) pairs; got ' .. #ARGV .. ' arguments')
end
local out = {}
local fenced = 0

for i = 1, (#ARGV - 2) / 2 do
  local user, order_id = ARGV[2 * i + 1], ARGV[2 * i + 2]
  if redis.call('HGET', buyers_key, user) == order_id then
    redis.call('HSET', buyers_key, user, order_id)
    out[i] = 1
  else
    redis.call('ZADD', fenced_key, ARGV[1], order_id)
    fenced = fenced + 1
    out[i] = 0
  end
end
if fenced > 0 then
  -- Bounded: fences older than keep go (each is removed once, so the work is paid for by the fences added), and the
  -- key itself expires keep after the last fence.
  redis.call('ZREMRANGEBYSCORE', fenced_key, '-inf', '(' .. (now - keep))
  redis.call('PEXPIRE', fenced_key, keep)
end
return out
