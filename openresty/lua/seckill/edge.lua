-- The edge's phase handlers, wired once in init_by_lua (conf.d/00-tunables.conf) from the rendered settings.
-- Workers inherit the objects built here from the master. The nginx config calls only this module.
local sold_out = require "seckill.sold_out"
local rate_limit = require "seckill.rate_limit"
local metrics = require "seckill.metrics"
local admin = require "seckill.admin"
local reply = require "seckill.reply"
local errors = require "seckill.errors"

local ngx = ngx
local var = ngx.var
local log = ngx.log
local WARN = ngx.WARN
local get_method = ngx.req.get_method
local str_sub = string.sub
local str_match = string.match
local tostring = tostring
local pairs = pairs

local _M = {}

local flags, limiters, counters

-- settings: limits ({ [route] = { rate = "20r/s", burst = 40 } }), sold_out_ttl (s), sold_out_dict, metrics_dict.
function _M.init(settings)
    counters = metrics.new(settings.metrics_dict)
    flags = sold_out.new(settings.sold_out_dict, settings.sold_out_ttl)
    limiters = {}
    for route, limit in pairs(settings.limits) do
        limiters[route] = rate_limit.new(limit.rate, limit.burst)
    end
end

-- A per-IP limit refused the request (error_page 429): limit_conn (too many in progress; it runs before limit_req
-- in the same phase, so it is asked first), else the limit_req zone of the route the location named.
local function rate_limited()
    counters:incr(metrics.RATE_LIMITED)
    if var.limit_conn_status == "REJECTED" then
        return reply.error(errors.TOO_MANY_CONNECTIONS)
    end
    local limiter = limiters[var.edge_route]
    return reply.error(errors.RATE_LIMITED, limiter and limiter:refusal())
end

-- nginx could not reach the service or it did not answer in time (502, 504; 503 when no server is left). The
-- service's own 503 passes through untouched (proxy_intercept_errors is off), so only nginx's errors get here.
local function count_upstream_error()
    local status = str_match(var.upstream_status or "", "(%d%d%d)$") or str_sub(tostring(ngx.status), 1, 3)
    counters:incr(metrics.label(metrics.UPSTREAM_ERRORS, "status", status))
end

-- Purchase, rewrite phase (set_by_lua): the 410 body when the sale is flagged sold out, else "". It runs before
-- limit_req (preaccess): sold-out answers are as cheap as a 429 and final, so they do not use up the client's
-- allowance, and a client retrying a sold-out sale keeps hearing SOLD_OUT (stop), not RATE_LIMITED (retry later).
function _M.sold_out_body()
    if get_method() ~= "POST" then
        return ""
    end
    -- The location's regex captures the one spelling of an id the service accepts (no sign, no leading zero).
    local id = var.sale_id
    if not id or id == "" or not flags:is_set(id) then
        return ""
    end
    counters:incr(metrics.SHORT_CIRCUITS)
    return sold_out.body(id)
end

-- Purchase, header filter: the service's SOLD_OUT answer (410 + X-Seckill-Sold-Out) sets the sale's flag.
-- ($upstream_http_x_seckill_sold_out is nginx's name for that header of the upstream's answer.)
function _M.purchase_header_filter()
    if ngx.status ~= reply.GONE or not var.upstream_http_x_seckill_sold_out then
        return
    end
    local id = var.sale_id
    if not id or id == "" then
        return
    end
    local ok, err = flags:set(id)
    if not ok then
        log(WARN, "failed to set the sold-out flag of sale ", id, ": ", err)
        return
    end
    counters:incr(metrics.label(metrics.FLAGS_SET, "source", "upstream"))
end

-- Content handler of location /_edge/error: every answer the edge gives of its own (seckill.errors), whether nginx
-- raised the status (error_page) or a route refused on purpose ($edge_error names the answer).
function _M.error_answer()
    local name = errors.name(var.edge_error, var.status)
    if name == errors.RATE_LIMITED then
        return rate_limited()
    end
    if name == errors.UNAVAILABLE then
        count_upstream_error()
    end
    return reply.error(name)
end

function _M.admin()
    return admin.handle(flags, counters)
end

function _M.metrics()
    return reply.send(reply.OK, counters:render({ [metrics.FLAGS] = admin.count(flags) }))
end

-- Log phase (server-wide): counts the request under the route its location set in $edge_route.
function _M.log()
    local route = var.edge_route
    if not route or route == "" then
        return
    end
    counters:request(route, ngx.status)
end

return _M
