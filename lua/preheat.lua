-- preheat.lua: put a sale's stock and window into Redis, only if they are absent (never a second preheat, so a
-- retried create or a restarted service cannot hand out the stock twice).
--
-- KEYS[1] {sk:<sale>}:stock  remaining units
-- KEYS[2] {sk:<sale>}:meta   hash start, end (epoch ms)
-- ARGV[1] stock
-- ARGV[2] start (epoch ms)
-- ARGV[3] end (epoch ms)
--
-- Returns 1 when it wrote the keys, 0 when they were already there.
local stock_key, meta_key = KEYS[1], KEYS[2]
if redis.call('EXISTS', meta_key) == 1 or redis.call('EXISTS', stock_key) == 1 then
  return 0
end
redis.call('SET', stock_key, ARGV[1])
redis.call('HSET', meta_key, 'start', ARGV[2], 'end', ARGV[3])
return 1
