-- The edge's request latency, a Prometheus histogram per route class (the $edge_route of the location: purchase,
-- protection, sale_read, order, login, health, static, api, refused), one set per nginx instance summed over its workers.
-- The time is from the request's first byte to the log phase, so a proxied request includes the service's answer.
--
-- Cheap on the flood path: the dict holds each bucket's own count (not the cumulative one), so a request costs two
-- shared-dict incr (its bucket and the sum) and a scan of twelve numbers; the scrape adds the buckets up and derives
-- _count. Both use ngx.now(), the worker's cached clock (millisecond resolution, no syscall): an answer faster than
-- a millisecond may read as 0, which lands in the first bucket, where it belongs.
--
-- Buckets are fixed (the same on every edge, so histogram_quantile can sum them across instances): a flag's 410 or a
-- 429 takes well under a millisecond, a purchase the service's few milliseconds, and the proxy gives up at
-- SECKILL_EDGE_READ_TIMEOUT (seconds). Counts survive a reload (HUP), not a restart.
-- Only the log phase's path is cached in locals; rendering is a scrape's, not a request's.
local ngx = ngx
local log = ngx.log
local WARN = ngx.WARN

local _M = {
    NAME = "seckill_edge_request_duration_seconds",
}

local BUCKETS = { 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5 }
local N = #BUCKETS
local SUM = "sum"

local mt = { __index = _M }

function _M.new(dict_name)
    local dict = ngx.shared[dict_name]
    assert(dict, "no lua_shared_dict " .. tostring(dict_name))
    -- Per-worker cache of each route's dict keys, so the log phase does not build strings.
    return setmetatable({ dict = dict, keys = {} }, mt)
end

-- Dict keys of a route: [1..N+1] its buckets (N+1 is +Inf), and the sum. A route name never holds ':'.
local function route_keys(route)
    local keys = { sum = route .. ":" .. SUM }
    for i = 1, N + 1 do
        keys[i] = route .. ":" .. i
    end
    return keys
end

local function incr(dict, key, by)
    local _, err = dict:incr(key, by, 0)
    if err then
        -- The dict is full: a sample is lost, never a request.
        log(WARN, "failed to count latency ", key, ": ", err)
    end
end

-- Records one request of `route` that took `seconds`.
function _M.observe(self, route, seconds)
    local keys = self.keys[route]
    if not keys then
        keys = route_keys(route)
        self.keys[route] = keys
    end
    local i = 1
    while i <= N and seconds > BUCKETS[i] do
        i = i + 1
    end
    incr(self.dict, keys[i], 1)
    incr(self.dict, keys.sum, seconds)
end

-- Prometheus text of the histogram (cumulative _bucket series, _sum, _count), "" before the first request.
function _M.render(self)
    local routes = {}
    for _, key in pairs(self.dict:get_keys(0)) do
        local route, slot = string.match(key, "^(.+):(%w+)$")
        if route then
            local r = routes[route]
            if not r then
                r = { counts = {}, sum = 0 }
                routes[route] = r
            end
            local value = self.dict:get(key) or 0
            if slot == SUM then
                r.sum = value
            else
                r.counts[tonumber(slot)] = value
            end
        end
    end
    local names = {}
    for route in pairs(routes) do
        names[#names + 1] = route
    end
    if #names == 0 then
        return ""
    end
    table.sort(names)
    local out = {
        "# HELP " .. _M.NAME .. " Time from a request's first byte to its answer, by route class.",
        "# TYPE " .. _M.NAME .. " histogram",
    }
    for _, route in ipairs(names) do
        local r = routes[route]
        local label = _M.NAME .. '_bucket{route="' .. route .. '",le="'
        local total = 0
        for i = 1, N + 1 do
            total = total + (r.counts[i] or 0)
            out[#out + 1] = label .. (i <= N and tostring(BUCKETS[i]) or "+Inf") .. '"} ' .. tostring(total)
        end
        out[#out + 1] = _M.NAME .. '_sum{route="' .. route .. '"} ' .. tostring(r.sum)
        out[#out + 1] = _M.NAME .. '_count{route="' .. route .. '"} ' .. tostring(total)
    end
    out[#out + 1] = ""
    return table.concat(out, "\n")
end

return _M
