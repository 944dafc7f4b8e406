-- purchase.lua: one atomic purchase attempt by one user in one sale.
--
-- KEYS[1] {sk:<sale>}:stock      remaining units (integer string)
-- KEYS[2] {sk:<sale>}:buyers     hash userId -> orderId
-- KEYS[3] {sk:<sale>}:meta       hash start, end (epoch ms)
-- KEYS[4] {sk:<sale>}:rl:<user>  hash tokens, ts: this user's token bucket in this sale
-- KEYS[5] {sk:<sale>}:unsent     hash userId -> "<orderId>:<ms of the last send attempt>"
-- ARGV[1] userId
-- ARGV[2] orderId to record if the purchase succeeds
-- ARGV[3] now (epoch ms; passed in so tests can use a fixed clock)
-- ARGV[4] bucket refill rate, tokens per second
-- ARGV[5] bucket capacity (burst)
--
-- Returns {code, data}:
--   { 0, remaining}   QUEUED: stock decremented, buyer recorded with ARGV[2]
--   { 1, orderId}     ALREADY_PURCHASED: the user's existing order id (string)
--   { 2, 0}           SOLD_OUT
--   { 3, msToStart}   NOT_STARTED
--   { 4, 0}           SALE_ENDED
--   { 5, msToToken}   RATE_LIMITED: wait this long for the next token
--   { 6, orderId}     RESEND: the user holds a unit whose order's send failed; send that order again (its entry's
--                     time is now ARGV[3], so reconcile leaves the unit alone while this send may still land)
--   { 7, held}        HELD: no stock left, but `held` units are held for orders whose send failed; they come back
--                     (resent by their buyers, or released by reconcile), so the sale is not sold out yet
--   {-1, 0}           MISSING: the sale's keys are not in Redis (never preheated, or Redis lost them)
local stock_key, buyers_key, meta_key, bucket_key, unsent_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local user, order_id = ARGV[1], ARGV[2]
local now, rate, burst = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])

local window = redis.call('HMGET', meta_key, 'start', 'end')
local stock = redis.call('GET', stock_key)
if not window[1] or not window[2] or not stock then
  return {-1, 0}
end

-- Token bucket: refill by elapsed time, take one token or refuse.
local bucket = redis.call('HMGET', bucket_key, 'tokens', 'ts')
local tokens = tonumber(bucket[1]) or burst
local last = tonumber(bucket[2]) or now
if now > last then
  tokens = math.min(burst, tokens + (now - last) * rate / 1000)
end
local ttl = math.ceil(burst * 1000 / rate) + 1000
if tokens < 1 then
  redis.call('HSET', bucket_key, 'tokens', tostring(tokens), 'ts', tostring(math.max(now, last)))
  redis.call('PEXPIRE', bucket_key, ttl)
  return {5, math.ceil((1 - tokens) * 1000 / rate)}
end
redis.call('HSET', bucket_key, 'tokens', tostring(tokens - 1), 'ts', tostring(math.max(now, last)))
redis.call('PEXPIRE', bucket_key, ttl)

local start_ms, end_ms = tonumber(window[1]), tonumber(window[2])
if now < start_ms then
  return {3, start_ms - now}
end
if now >= end_ms then
  return {4, 0}
end

local existing = redis.call('HGET', buyers_key, user)
if existing then
  -- The entry names its order: one left from an order that is no longer the buyer's mark must not resend it.
  local unsent = redis.call('HGET', unsent_key, user)
  if unsent and string.match(unsent, '^(%d+):') == existing then
    redis.call('HSET', unsent_key, user, existing .. ':' .. ARGV[3])
    return {6, existing}
  end
  return {1, existing}
end

stock = tonumber(stock)
if stock <= 0 then
  -- Not SOLD_OUT while units wait for a resend: that answer would set the sold-out flags, and the flags would then
  -- turn away the very buyers whose retries resend those orders.
  local held = redis.call('HLEN', unsent_key)
  if held > 0 then
    return {7, held}
  end
  return {2, 0}
end
redis.call('DECR', stock_key)
redis.call('HSET', buyers_key, user, order_id)
return {0, stock - 1}
