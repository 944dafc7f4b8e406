-- Edge counters in a shared dict (one set per nginx instance, summed over its workers), rendered as Prometheus
-- text. A series' full name with labels is its dict key; labels come from the config and status codes only, so
-- the number of series stays small. Counters survive a reload (HUP), not a restart.
local ngx = ngx
local shared = ngx.shared
local log = ngx.log
local WARN = ngx.WARN
local concat = table.concat
local sort = table.sort
local str_match = string.match
local setmetatable = setmetatable
local pairs = pairs
local tostring = tostring

local _M = {
    REQUESTS = "seckill_edge_requests_total",
    RATE_LIMITED = "seckill_edge_rate_limited_total",
    SHORT_CIRCUITS = "seckill_edge_sold_out_short_circuits_total",
    FLAGS_SET = "seckill_edge_sold_out_flags_set_total",
    FLAGS_CLEARED = "seckill_edge_sold_out_flags_cleared_total",
    UPSTREAM_ERRORS = "seckill_edge_upstream_errors_total",
    FLAGS = "seckill_edge_sold_out_flags",
    RECHECKS = "seckill_edge_flag_rechecks_total",
    ADMISSION_REFUSED = "seckill_edge_admission_refused_total",
    IN_FLIGHT = "seckill_edge_purchases_in_flight",
    ADMISSION_LIMIT = "seckill_edge_admission_in_flight_limit",
    ADMISSION_LONG = "seckill_edge_admission_usual_answer_seconds",
    ADMISSION_SHORT = "seckill_edge_admission_answer_seconds",
    LINE_ANSWERS = "seckill_edge_line_answers_total",
}

local HELP = {
    [_M.REQUESTS] = { "counter", "Requests answered by the edge, by route and status." },
    [_M.RATE_LIMITED] = { "counter", "Requests refused by a per-IP limit (429), all routes." },
    [_M.SHORT_CIRCUITS] = { "counter",
        "Purchases answered 410 (SOLD_OUT or SALE_ENDED) from the edge's flag without the service." },
    [_M.FLAGS_SET] = { "counter", "Flags set (SOLD_OUT, SALE_ENDED), by source (upstream answer or admin)." },
    [_M.FLAGS_CLEARED] = { "counter", "Flags cleared through the admin location." },
    [_M.RECHECKS] = { "counter",
        "Flag re-checks answered by the service, by result (confirmed, cleared: accepted, kept: inconclusive)." },
    [_M.ADMISSION_REFUSED] = { "counter",
        "Purchases refused by the edge's total admission (429), by limit (rate, in_flight)." },
    [_M.IN_FLIGHT] = { "gauge", "Purchases admitted to the service and not yet answered." },
    [_M.ADMISSION_LIMIT] = { "gauge",
        "The total admission's in-flight limit now (it follows the service's answer time, up to its knob)." },
    [_M.ADMISSION_LONG] = { "gauge",
        "The admitted purchases' usual answer time: the admission's slow average of its intervals' means (5 s)." },
    [_M.ADMISSION_SHORT] = { "gauge",
        "The mean answer time of the purchases admitted in the admission's last interval (100 ms)." },
    [_M.UPSTREAM_ERRORS] = { "counter", "Upstream failures answered 503 by the edge, by nginx status (502, 504)." },
    [_M.FLAGS] = { "gauge", "Flags (SOLD_OUT, SALE_ENDED) currently set." },
    [_M.LINE_ANSWERS] = { "counter",
        "Waiting-room polls and purchases the edge answered itself from a line's progress, by code." },
}

local mt = { __index = _M }

function _M.label(name, label, value)
    return name .. '{' .. label .. '="' .. value .. '"}'
end

-- Series that exist from the start at 0 rather than from their first event: a series that appears only when
-- something goes wrong has no rate() before it, so a dashboard shows nothing and an alert on a rise never sees one.
-- Labels with a known, fixed set of values only; requests_total appears per route and status as they come.
local DECLARED = {
    _M.RATE_LIMITED, _M.SHORT_CIRCUITS, _M.FLAGS_CLEARED,
    _M.label(_M.FLAGS_SET, "source", "upstream"), _M.label(_M.FLAGS_SET, "source", "admin"),
    _M.label(_M.UPSTREAM_ERRORS, "status", "502"), _M.label(_M.UPSTREAM_ERRORS, "status", "504"),
    _M.label(_M.RECHECKS, "result", "confirmed"), _M.label(_M.RECHECKS, "result", "cleared"),
    _M.label(_M.RECHECKS, "result", "kept"),
    _M.label(_M.ADMISSION_REFUSED, "limit", "rate"), _M.label(_M.ADMISSION_REFUSED, "limit", "in_flight"),
}

function _M.new(dict_name)
    local dict = shared[dict_name]
    assert(dict, "no lua_shared_dict " .. tostring(dict_name))
    for i = 1, #DECLARED do
        -- add, not set: after a reload (HUP) the dict keeps its counts.
        dict:add(DECLARED[i], 0)
    end
    -- Per-worker cache of request series names, so the log phase does not build strings.
    return setmetatable({ dict = dict, request_keys = {} }, mt)
end

-- Counts one; the edge keeps working if the dict is full (a counter is lost, never a request).
function _M.incr(self, series)
    local _, err = self.dict:incr(series, 1, 0)
    if err then
        log(WARN, "failed to count ", series, ": ", err)
    end
end

function _M.request(self, route, status)
    local by_status = self.request_keys[route]
    if not by_status then
        by_status = {}
        self.request_keys[route] = by_status
    end
    local key = by_status[status]
    if not key then
        key = _M.REQUESTS .. '{route="' .. route .. '",status="' .. status .. '"}'
        by_status[status] = key
    end
    return self:incr(key)
end

-- Prometheus text of every counter, plus the gauges given as { [name] = value }.
function _M.render(self, gauges)
    local by_name = {}
    for _, key in pairs(self.dict:get_keys(0)) do
        local name = str_match(key, "^[%w_]+")
        by_name[name] = by_name[name] or {}
        local series = by_name[name]
        series[#series + 1] = key .. " " .. tostring(self.dict:get(key) or 0)
    end
    for name, value in pairs(gauges or {}) do
        by_name[name] = { name .. " " .. tostring(value) }
    end
    local names = {}
    for name in pairs(by_name) do
        names[#names + 1] = name
    end
    sort(names)
    local out = {}
    for _, name in pairs(names) do
        local help = HELP[name]
        if help then
            out[#out + 1] = "# HELP " .. name .. " " .. help[2]
            out[#out + 1] = "# TYPE " .. name .. " " .. help[1]
        end
        local series = by_name[name]
        sort(series)
        for i = 1, #series do
            out[#out + 1] = series[i]
        end
    end
    out[#out + 1] = ""
    return concat(out, "\n")
end

return _M
