-- conserve.lua: restore a sale's conservation inside Redis, atomically with respect to purchases:
-- remaining = stock_total - number of recorded buyers. Used by reconcile after it added or released buyer marks.
--
-- KEYS[1] {sk:<sale>}:stock   remaining units
-- KEYS[2] {sk:<sale>}:buyers  hash userId -> orderId
-- ARGV[1] stock_total
--
-- Returns {before, after}: the remaining stock before and after (equal when nothing had to change);
-- {-1, -1} when the stock key is absent (the sale must be rebuilt, not conserved).
local stock_key, buyers_key = KEYS[1], KEYS[2]
local total = tonumber(ARGV[1])
local before = redis.call('GET', stock_key)
if not before then
  return {-1, -1}
end
local after = total - redis.call('HLEN', buyers_key)
if after < 0 then
  after = 0
end
if tonumber(before) ~= after then
  redis.call('SET', stock_key, after)
end
return {tonumber(before), after}
