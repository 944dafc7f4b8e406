-- Total admission: how many purchases this edge lets through to the service, whoever sends them. The per-IP limits
-- bound each client; this bounds their sum, so a crowd of many addresses (or a proxy pool) cannot push the service
-- past the load it answers in its normal time. Two limits, both over every client of this nginx instance (one
-- shared dict, all workers):
--   rate       purchases admitted per second: a sliding one-second window (the count of this second plus the
--              previous second's, weighted by how much of it is still inside the window; Kong's rate-limiting does
--              the same). Only admitted purchases count, so a flood does not starve the next second.
--   in flight  purchases admitted and not yet answered: a gauge, up when admitted, down in the log phase.
-- Both use atomic `incr`, so concurrent workers can over-count for a moment (and refuse one purchase too many) but
-- never admit past a limit. Per instance: N edges admit up to N times these values in total.
-- Known limit: a worker that dies mid-request never takes its purchases off the gauge (as lua-resty-limit-traffic's
-- limit.conn); the gauge is at /edge/metrics, and a restart of the edge resets it.
local ngx = ngx
local shared = ngx.shared
local ngx_now = ngx.now
local math_floor = math.floor
local setmetatable = setmetatable
local tostring = tostring

local _M = {
    -- Refusal reasons: the label of the refusal counter.
    RATE = "rate",
    IN_FLIGHT = "in_flight",
}
local mt = { __index = _M }

local IN_FLIGHT_KEY = "in_flight"
local WINDOW_PREFIX = "second:"
-- A window's count is read during the next second, then never again.
local WINDOW_TTL = 2

function _M.new(dict_name, rate, in_flight)
    local dict = shared[dict_name]
    assert(dict, "no lua_shared_dict " .. tostring(dict_name))
    assert(type(rate) == "number" and rate >= 1, "admission rate must be >= 1 per second")
    assert(type(in_flight) == "number" and in_flight >= 1, "admission in-flight limit must be >= 1")
    return setmetatable({ dict = dict, rate = rate, in_flight = in_flight }, mt)
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
    if n > self.in_flight then
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

-- An admitted purchase has been answered (or abandoned).
function _M.leave(self)
    self.dict:incr(IN_FLIGHT_KEY, -1, 0)
end

-- Purchases admitted and not yet answered, for the metrics gauge.
function _M.current(self)
    return self.dict:get(IN_FLIGHT_KEY) or 0
end

return _M
