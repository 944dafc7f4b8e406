-- purchase.lua: atomic purchase attempts of N >= 1 buyers in one sale, decided one after the other in the order given,
-- each exactly as if it were a call of its own (a single attempt is N = 1). The service coalesces the buyers of a hot
-- sale who wait while a call is in flight into the next call (redis.coalesce-max bounds N), so one sale is not
-- bounded by one round trip per click.
--
-- KEYS[1]     {sk:<sale>}:stock       remaining units (integer string)
-- KEYS[2]     {sk:<sale>}:buyers      hash userId -> orderId
-- KEYS[3]     {sk:<sale>}:meta        hash start, end (epoch ms)
-- KEYS[4]     {sk:<sale>}:unsent      hash userId -> "<orderId>:<ms of the last send attempt>"
-- KEYS[5]     {sk:<sale>}:fenced      sorted set of order ids confirm.lua found unreserved after a lost answer
-- KEYS[5+i]   {sk:<sale>}:rl:<user i> hash tokens, ts: buyer i's token bucket in this sale
-- ARGV[1]     bucket refill rate, tokens per second
-- ARGV[2]     bucket capacity (burst)
-- ARGV[3i]    buyer i's userId
-- ARGV[3i+1]  buyer i's orderId, recorded if the purchase succeeds
-- ARGV[3i+2]  buyer i's now (epoch ms; passed in so tests can use a fixed clock)
--
-- Returns {code1, data1, code2, data2, ...}, one pair per buyer in the order given:
--   { 0, remaining}   QUEUED: stock decremented, buyer recorded with its orderId
--   { 1, orderId}     ALREADY_PURCHASED: the user's existing order id (string); also a buyer twice in one call
--   { 2, 0}           SOLD_OUT
--   { 3, msToStart}   NOT_STARTED
--   { 4, 0}           SALE_ENDED
--   { 5, msToToken}   RATE_LIMITED: wait this long for the next token
--   { 6, orderId}     RESEND: the user holds a unit whose order's send failed; send that order again (its entry's
--                     time is now the buyer's now, so reconcile leaves the unit alone while this send may still land)
--   { 7, held}        HELD: no stock left, but `held` units are held for orders whose send failed; they come back
--                     (resent by their buyers, or released by reconcile), so the sale is not sold out yet
--   { 8, 0}           FENCED: this order id was fenced by confirm.lua (its attempt was answered 503 holding nothing):
--                     this is a late copy of that call (stalled in a socket, or resent by the client); nothing is
--                     written for it, not even a token
--   {-1, 0}           MISSING: the sale's keys are not in Redis (never preheated, or Redis lost them): every buyer
local stock_key, buyers_key, meta_key, unsent_key, fenced_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local n = #KEYS - 5
if n < 1 or #ARGV ~= 2 + 3 * n then
  return redis.error_reply('purchase.lua: ' .. n .. ' buyer keys need ' .. (2 + 3 * n) .. ' arguments, got ' .. #ARGV)
end
local out = {}

local window = redis.call('HMGET', meta_key, 'start', 'end')
local stock = redis.call('GET', stock_key)
if not window[1] or not window[2] or not stock then
  for i = 1, n do
    out[2 * i - 1], out[2 * i] = -1, 0
  end
  return out
end
local start_ms, end_ms = tonumber(window[1]), tonumber(window[2])
stock = tonumber(stock)
local taken = 0
local ttl = math.ceil(burst * 1000 / rate) + 1000
-- Fences are rare (only after a lost answer): one EXISTS per call, a ZSCORE per buyer only while there are any.
local any_fenced = redis.call('EXISTS', fenced_key) == 1

local function decide(bucket_key, user, order_id, now_arg)
  -- First: the attempt of a fenced order id was already answered 503 "nothing held", so this copy changes nothing.
  if any_fenced and redis.call('ZSCORE', fenced_key, order_id) then
    return 8, 0
  end
  local now = tonumber(now_arg)
  -- Token bucket: refill by elapsed time, take one token or refuse.
  local bucket = redis.call('HMGET', bucket_key, 'tokens', 'ts')
  local tokens = tonumber(bucket[1]) or burst
  local last = tonumber(bucket[2]) or now
  if now > last then
    tokens = math.min(burst, tokens + (now - last) * rate / 1000)
  end
  if tokens < 1 then
    redis.call('HSET', bucket_key, 'tokens', tostring(tokens), 'ts', tostring(math.max(now, last)))
    redis.call('PEXPIRE', bucket_key, ttl)
    return 5, math.ceil((1 - tokens) * 1000 / rate)
  end
  redis.call('HSET', bucket_key, 'tokens', tostring(tokens - 1), 'ts', tostring(math.max(now, last)))
  redis.call('PEXPIRE', bucket_key, ttl)

  if now < start_ms then
    return 3, start_ms - now
  end
  if now >= end_ms then
    return 4, 0
  end

  local existing = redis.call('HGET', buyers_key, user)
  if existing then
    -- The entry names its order: one left from an order that is no longer the buyer's mark must not resend it.
    local unsent = redis.call('HGET', unsent_key, user)
    if unsent and string.match(unsent, '^(%d+):') == existing then
      redis.call('HSET', unsent_key, user, existing .. ':' .. now_arg)
      return 6, existing
    end
    return 1, existing
  end

  if stock <= 0 then
    -- Not SOLD_OUT while units wait for a resend: that answer would set the sold-out flags, and the flags would then
    -- turn away the very buyers whose retries resend those orders.
    local held = redis.call('HLEN', unsent_key)
    if held > 0 then
      return 7, held
    end
    return 2, 0
  end
  -- The mark now, the stock once at the end: a later buyer of this call sees both (the local count).
  stock = stock - 1
  taken = taken + 1
  redis.call('HSET', buyers_key, user, order_id)
  return 0, stock
end

for i = 1, n do
  out[2 * i - 1], out[2 * i] = decide(KEYS[5 + i], ARGV[3 * i], ARGV[3 * i + 1], ARGV[3 * i + 2])
end
if taken > 0 then
  redis.call('DECRBY', stock_key, taken)
end
return out
