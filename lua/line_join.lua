-- line_join.lua: one buyer joins a sale's waiting room, or finds the place they already have (one place per buyer).
-- Before the draw (the sale's start) a buyer joins the pre-queue with the random number the service drew for them:
-- the pre-queue is ordered by those numbers, which is one uniform shuffle of everyone in it, however early or late
-- they came. From the draw on, a buyer joins behind everyone already in line, first come first served (a sequence
-- number). One call per join: the answer carries all the service needs to say where the buyer stands.
--
-- KEYS[1] {sk:<sale>}:line         hash: drawn (1 once the pre-queue is closed), seq (buyers who joined after it)
-- KEYS[2] {sk:<sale>}:line:places  hash userId -> place: "p<random>" (pre-queue) or "s<sequence>" (after the draw)
-- KEYS[3] {sk:<sale>}:line:pre     sorted set: the pre-queue's buyers, scored by their random number
-- KEYS[4] {sk:<sale>}:buyers       hash userId -> orderId of every buyer (purchase.lua)
-- ARGV[1] userId
-- ARGV[2] the buyer's random number (an integer below 2^52), used only if they join the pre-queue now
-- ARGV[3] 1 while the pre-queue is open (the service's clock is before the start), else 0
--
-- Returns:
--   {"bought", orderId, 0}  the buyer already holds an order in this sale; nothing changed
--   {"p", random, rank}     a pre-queue place; rank: the 0-based place among the pre-queue once drawn, -1 before
--   {"s", sequence, 0}      a place after the draw: behind the pre-queue and the sequence - 1 who joined after it
local line_key, places_key, pre_key, buyers_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local user = ARGV[1]

local order = redis.call('HGET', buyers_key, user)
if order then
  return { 'bought', order, 0 }
end
local drawn = redis.call('HGET', line_key, 'drawn') == '1'
local place = redis.call('HGET', places_key, user)
if not place then
  -- A join racing the draw: once drawn, the pre-queue is closed whatever this service's clock says.
  if ARGV[3] == '1' and not drawn then
    place = 'p' .. ARGV[2]
    redis.call('ZADD', pre_key, ARGV[2], user)
  else
    place = 's' .. redis.call('HINCRBY', line_key, 'seq', 1)
  end
  redis.call('HSET', places_key, user, place)
end
local kind, value = string.sub(place, 1, 1), string.sub(place, 2)
if kind == 'p' then
  return { kind, value, drawn and redis.call('ZRANK', pre_key, user) or -1 }
end
return { kind, value, 0 }
