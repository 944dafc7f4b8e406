-- line_advance.lua: moves a sale's line on, at most once per interval whoever calls (every service instance may;
-- the first call of an interval does the work, the others read the same state). At the first call from the start on
-- it draws: the pre-queue closes (line_join.lua then puts everyone behind it). Then it admits the next buyers in line,
-- in order, as many as
--   - there are units not yet claimed by an admission (remaining stock - admissions outstanding): a unit that comes
--     back (an unpaid order lapsed) admits exactly the next buyer, and nobody is admitted for a unit that is gone;
--   - the rate allows: a fixed number a second (ARGV[4]), or else enough to keep `window` admissions outstanding,
--     so the line moves as fast as admitted buyers buy, which is as fast as the service takes their purchases.
-- An admission is used when its buyer holds an order (the buyers hash counts every one, even a unit given back
-- later); one not used within the admission time lapses, and its unit is offered to the next buyer.
-- Lapsed = admitted before now - admission time, minus used (a buyer admitted earlier buys earlier, so this counts
-- the admissions that are truly over; it can only undercount, never free a unit an admission still holds).
--
-- Each advance that admits records a step "<ms>:<admitted>:<cut>" (cut: the random number of the last pre-queue
-- buyer admitted, 2^52 once all are), so anyone holding a ticket can tell when its place was admitted; steps closer
-- than a hundredth of the admission time merge into the earlier one (an admission may then end up to 1 % early), and
-- only the last step at or before now - admission time is kept of the older ones.
--
-- KEYS[1] {sk:<sale>}:line        hash: at, drawn, npre, seq, admitted, cut, carry, lapsed, soldOutAt, last
-- KEYS[2] {sk:<sale>}:line:pre    sorted set of the pre-queue by random number
-- KEYS[3] {sk:<sale>}:line:steps  list of steps, oldest first
-- KEYS[4] {sk:<sale>}:stock       remaining units
-- KEYS[5] {sk:<sale>}:buyers      hash userId -> orderId
-- KEYS[6] {sk:<sale>}:returned    set of order ids whose unit came back
-- ARGV[1] now (epoch ms)     ARGV[2] the sale's start (epoch ms)   ARGV[3] admission time (ms)
-- ARGV[4] fixed rate (admissions a second; 0: follow the buyers)    ARGV[5] window (admissions outstanding)
-- ARGV[6] interval (ms)
--
-- Returns {at, drawn, npre, seq, admitted, cut, remaining, used, returned, lapsed, soldOutAt, step1, step2, ...}
-- (integers, steps as strings); remaining is -1 when the sale's stock is not in Redis.
local line_key, pre_key, steps_key, stock_key, buyers_key, returned_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4],
    KEYS[5], KEYS[6]
local now, starts, admit_ms = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local rate, window, interval = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local ALL = 4503599627370496

local function num(field)
  return tonumber(redis.call('HGET', line_key, field) or '0')
end
local function step_of(entry)
  local ms, admitted, cut = string.match(entry, '^(%d+):(%d+):(-?%d+)$')
  return tonumber(ms), tonumber(admitted), tonumber(cut)
end

local at = num('at')
if now >= starts and now - at >= interval then
  redis.call('HSET', line_key, 'at', now)
  if num('drawn') == 0 then
    redis.call('HSET', line_key, 'drawn', 1, 'npre', redis.call('ZCARD', pre_key), 'cut', -1)
  end
  local npre, total, admitted = num('npre'), num('npre') + num('seq'), num('admitted')
  local remaining = tonumber(redis.call('GET', stock_key) or '-1')
  local used = redis.call('HLEN', buyers_key)
  -- Admitted at or before the cutoff: the last step at or before it (the head, once the older ones are trimmed).
  local cutoff, before = now - admit_ms, 0
  local steps = redis.call('LRANGE', steps_key, 0, 1)
  for i = 1, #steps do
    local ms, a = step_of(steps[i])
    if ms <= cutoff then
      before = a
    end
  end
  local lapsed = math.max(0, before - used)
  local outstanding = math.max(0, admitted - used - lapsed)
  local quota
  if rate > 0 then
    -- A fixed rate accrues over the time since the last advance (at most 10 s of it: an idle line does not save up).
    -- The first advance (the draw) starts the clock.
    quota = num('carry') + (at > 0 and rate * math.min(now - at, 10000) / 1000 or 0)
  else
    quota = window - outstanding
  end
  local room = remaining - outstanding
  local new = math.max(0, math.min(math.floor(quota), room, total - admitted))
  if rate > 0 then
    redis.call('HSET', line_key, 'carry', new == math.floor(quota) and tostring(quota - new) or '0')
  end
  if new > 0 then
    admitted = admitted + new
    local cut = ALL
    if admitted < npre then
      cut = tonumber(redis.call('ZRANGE', pre_key, admitted - 1, admitted - 1, 'WITHSCORES')[2])
    end
    redis.call('HSET', line_key, 'admitted', admitted, 'cut', cut)
    local entry = now .. ':' .. admitted .. ':' .. string.format('%d', cut)
    local last = redis.call('LINDEX', steps_key, -1)
    if last and now - step_of(last) < admit_ms / 100 then
      -- Merged: the later admissions keep the earlier step's time (1 % of the admission time at most).
      redis.call('LSET', steps_key, -1, step_of(last) .. ':' .. admitted .. ':' .. string.format('%d', cut))
    else
      redis.call('RPUSH', steps_key, entry)
    end
  end
  -- Keep one step at or before the cutoff, drop the older ones.
  while true do
    local second = redis.call('LINDEX', steps_key, 1)
    if not second or step_of(second) > cutoff then
      break
    end
    redis.call('LPOP', steps_key)
  end
  redis.call('HSET', line_key, 'lapsed', lapsed)
  -- The moment the stock last ran out (an unpaid order bought then may lapse one payment window later).
  if remaining == 0 and redis.call('HGET', line_key, 'last') ~= '0' then
    redis.call('HSET', line_key, 'soldOutAt', now)
  end
  redis.call('HSET', line_key, 'last', remaining)
end

-- Before the draw, npre is how many have joined the pre-queue so far.
local npre = num('drawn') == 1 and num('npre') or redis.call('ZCARD', pre_key)
local out = { num('at'), num('drawn'), npre, num('seq'), num('admitted'), num('cut'),
              tonumber(redis.call('GET', stock_key) or '-1'), redis.call('HLEN', buyers_key),
              redis.call('SCARD', returned_key), num('lapsed'), num('soldOutAt') }
local steps = redis.call('LRANGE', steps_key, 0, -1)
for i = 1, #steps do
  out[#out + 1] = steps[i]
end
return out
