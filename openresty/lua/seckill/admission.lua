-- Total admission: how many purchases this edge lets through to the service, whoever sends them. The per-IP limits
-- bound each client; this bounds their sum, so a crowd of many addresses (or a proxy pool) cannot push the service
-- past the load it answers in its normal time. Two limits, both over every client of this nginx instance (one
-- shared dict, all workers):
--   in flight  purchases admitted and not yet answered: a gauge, up when admitted, down in the log phase. Its limit
--              follows the service (below), between MIN_IN_FLIGHT and the in_flight knob, which is an upper bound.
--   rate       purchases admitted per second, an upper bound only: a sliding one-second window (the count of this
--              second plus the previous second's, weighted by how much of it is still inside the window; Kong's
--              rate-limiting does the same). Only admitted purchases count, so a flood does not starve the next
--              second.
--
-- How the in-flight limit follows the service (the gradient of Netflix's concurrency-limits, Gradient2Limit, on the
-- answer times the edge sees): every INTERVAL, one worker takes the mean answer time of the purchases admitted during
-- it (the short time) and a slow average of those means (the long time: an exponential average over about LONG
-- intervals, what the service's answers have been taking lately). The gradient is TOLERANCE x long / short, held
-- between 1/2 and 1: while the service answers in about its usual time it is 1 and the limit grows by about its
-- square root; when the answers take more than TOLERANCE times their usual time, purchases are queueing in the
-- service, and the limit shrinks in proportion (at most by half per interval, smoothed), so fewer are let in and
-- the queue drains. A limit not in use (under half of it in flight) does not move: at low load nothing is refused
-- and nothing waits. After a load drop (long more than twice short) the long time decays faster, as Gradient2 does.
-- The limit starts at the in_flight knob: a sale's first crowd is not throttled while the edge learns.
-- A purchase pays one more shared-dict read to admit and four dict operations when answered (one worker per
-- interval also adapts).
--
-- Dict operations are atomic, so concurrent workers can over-count for a moment (and refuse one purchase too many)
-- but never admit past a limit; the interval's sums are read and reset without a lock, so a sample that lands in
-- between is lost (statistics, not accounting). Per instance: N edges admit up to N times these values in total,
-- each following what the service answers it.
-- Known limit: a worker that dies mid-request never takes its purchases off the gauge (as lua-resty-limit-traffic's
-- limit.conn); the gauge is at /edge/metrics, and a restart of the edge resets it.
local ngx = ngx
local shared = ngx.shared
local ngx_now = ngx.now
local math_floor = math.floor
local math_min = math.min
local math_max = math.max
local math_sqrt = math.sqrt
local setmetatable = setmetatable
local tostring = tostring

local _M = {
    -- Refusal reasons: the label of the refusal counter.
    RATE = "rate",
    IN_FLIGHT = "in_flight",
}
local mt = { __index = _M }

local IN_FLIGHT_KEY = "in_flight"
local LIMIT_KEY = "limit"
local WINDOW_PREFIX = "second:"
-- A window's count is read during the next second, then never again.
local WINDOW_TTL = 2

-- The adaptation's state: the interval's sum and count of answer times, when the next adaptation is due, the long
-- time, and the last short time (for the metrics).
local SUM_KEY = "rtt_sum"
local COUNT_KEY = "rtt_count"
local DUE_KEY = "due"
local LOCK_PREFIX = "adapting:"
local LONG_KEY = "rtt_long"
local SHORT_KEY = "rtt_short"
-- Adapt every 100 ms; the long time averages about the last 5 s of intervals.
local INTERVAL = 0.1
local LONG = 50
local LONG_WEIGHT = 2 / (LONG + 1)
-- The resolution of $upstream_response_time (seconds).
local RESOLUTION = 0.001
-- An interval with fewer answers says too little to move the limit.
local MIN_SAMPLES = 5
-- The gradient's floor (at most halve per interval: one slow interval, a GC pause, must not shut the edge) and the
-- weight of each new limit against the current one.
local MIN_GRADIENT = 0.5
local SMOOTHING = 0.5
-- Long over short past this: the load dropped; the long time decays faster than its average would.
local DROP = 2
local DROP_DECAY = 0.95
-- The in-flight limit's floor: a few purchases always go through, so the answer times that let the limit grow back
-- keep coming however slow the service got (at most the in_flight knob: a small knob alone works).
local MIN_IN_FLIGHT = 8
-- How far past their usual time the answers may go before the limit shrinks: twice the usual time is queueing, not
-- the noise of one slow interval.
local TOLERANCE = 2

-- rate, in_flight: the upper bounds.
function _M.new(dict_name, settings)
    local dict = shared[dict_name]
    assert(dict, "no lua_shared_dict " .. tostring(dict_name))
    local rate, max = settings.rate, settings.in_flight
    assert(type(rate) == "number" and rate >= 1, "admission rate must be >= 1 per second")
    assert(type(max) == "number" and max >= 1, "admission in-flight limit must be >= 1")
    -- A floor above the upper bound is the upper bound: setting a small in_flight alone must work.
    local min = math_min(MIN_IN_FLIGHT, max)
    -- A new edge (or one whose knobs changed on a reload) starts at its upper bound and comes down if it must.
    local limit = dict:get(LIMIT_KEY)
    if not limit or limit > max or limit < min then
        dict:set(LIMIT_KEY, max)
    end
    return setmetatable({ dict = dict, rate = rate, max = max, min = min }, mt)
end

-- Admits one purchase (true) or refuses it (nil, reason). An admitted purchase must be given back with leave().
function _M.admit(self)
    local dict = self.dict
    -- In flight first: it is the limit that protects the service's latency, and giving it back is one incr.
    local n, err = dict:incr(IN_FLIGHT_KEY, 1, 0)
    if not n then
        -- The dict cannot count (no memory): admit, as the per-IP limits still stand; an edge that refuses every
        -- purchase because of its own bookkeeping would be worse than one that does not limit the total.
        ngx.log(ngx.WARN, "failed to count a purchase in flight: ", err)
        return true
    end
    if n > (dict:get(LIMIT_KEY) or self.max) then
        dict:incr(IN_FLIGHT_KEY, -1)
        return nil, _M.IN_FLIGHT
    end
    local now = ngx_now()
    local second = math_floor(now)
    local key = WINDOW_PREFIX .. second
    local count = dict:incr(key, 1, 0, WINDOW_TTL)
    if count then
        local previous = dict:get(WINDOW_PREFIX .. (second - 1)) or 0
        if count + previous * (1 - (now - second)) > self.rate then
            dict:incr(key, -1)
            dict:incr(IN_FLIGHT_KEY, -1)
            return nil, _M.RATE
        end
    end
    return true
end

-- One adaptation of the in-flight limit from the interval that just ended (see the top of the file).
function _M.adapt(self)
    local dict = self.dict
    local count = dict:get(COUNT_KEY) or 0
    if count < MIN_SAMPLES then
        return
    end
    -- nginx times answers to the millisecond: an interval of quicker answers counts as one millisecond, so the
    -- gradient's ratio is never 0/0.
    local short = math_max(RESOLUTION, (dict:get(SUM_KEY) or 0) / count)
    dict:set(SUM_KEY, 0)
    dict:set(COUNT_KEY, 0)
    dict:set(SHORT_KEY, short)
    local long = dict:get(LONG_KEY)
    long = long and long + LONG_WEIGHT * (short - long) or short
    if long / short > DROP then
        long = long * DROP_DECAY
    end
    dict:set(LONG_KEY, long)
    local limit = dict:get(LIMIT_KEY) or self.max
    if (dict:get(IN_FLIGHT_KEY) or 0) < limit / 2 then
        return
    end
    local gradient = math_max(MIN_GRADIENT, math_min(1, TOLERANCE * long / short))
    local next_limit = limit * gradient + math_sqrt(limit)
    limit = limit * (1 - SMOOTHING) + next_limit * SMOOTHING
    dict:set(LIMIT_KEY, math_max(self.min, math_min(self.max, limit)))
end

-- An admitted purchase has been answered (or abandoned) after `seconds` (nil: no answer time to learn from).
function _M.leave(self, seconds)
    local dict = self.dict
    dict:incr(IN_FLIGHT_KEY, -1, 0)
    if not seconds then
        return
    end
    dict:incr(SUM_KEY, seconds, 0)
    dict:incr(COUNT_KEY, 1, 0)
    local now = ngx_now()
    local due = dict:get(DUE_KEY)
    if due and now < due then
        return
    end
    -- One worker adapts per interval: the first to take the interval's lock.
    if not dict:add(LOCK_PREFIX .. (due or 0), true, 1) then
        return
    end
    dict:set(DUE_KEY, now + INTERVAL)
    self:adapt()
end

-- Purchases admitted and not yet answered, for the metrics gauge.
function _M.current(self)
    return self.dict:get(IN_FLIGHT_KEY) or 0
end

-- The in-flight limit now, the long time and the last interval's mean answer time (seconds; 0 before any), for
-- the metrics.
function _M.state(self)
    local dict = self.dict
    return math_floor(dict:get(LIMIT_KEY) or self.max), dict:get(LONG_KEY) or 0, dict:get(SHORT_KEY) or 0
end

return _M
