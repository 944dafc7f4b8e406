-- conserve.lua: restore a sale's conservation inside Redis, atomically with respect to purchases and releases:
-- remaining = stock_total - live buyers, where live buyers = recorded buyers - orders whose unit came back (an
-- expired buyer keeps their mark, and their order id is in the returned set; release.lua adds it only while the
-- mark is that order, so the returned set is a subset of the marks). Used by reconcile after it added or released
-- buyer marks or returned order ids.
--
-- KEYS[1] {sk:<sale>}:stock     remaining units
-- KEYS[2] {sk:<sale>}:buyers    hash userId -> orderId
-- KEYS[3] {sk:<sale>}:returned  set of order ids whose unit came back
-- ARGV[1] stock_total
--
-- Returns {before, after}: the remaining stock before and after (equal when nothing had to change);
-- {-1, -1} when the stock key is absent (the sale must be rebuilt, not conserved).
local stock_key, buyers_key, returned_key = KEYS[1], KEYS[2], KEYS[3]
local total = tonumber(ARGV[1])
local before = redis.call('GET', stock_key)
if not before then
  return {-1, -1}
end
local after = total - (redis.call('HLEN', buyers_key) - redis.call('SCARD', returned_key))
if after < 0 then
  after = 0
end
if tonumber(before) ~= after then
  redis.call('SET', stock_key, after)
end
return {tonumber(before), after}
