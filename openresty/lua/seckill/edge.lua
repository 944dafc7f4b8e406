-- The edge's phase handlers, wired once in init_by_lua (conf.d/00-tunables.conf) from the rendered settings.
-- Workers inherit the objects built here from the master. The nginx config calls only this module.
local sale_flags = require "seckill.flags"
local admission = require "seckill.admission"
local rate_limit = require "seckill.rate_limit"
local metrics = require "seckill.metrics"
local latency = require "seckill.latency"
local admin = require "seckill.admin"
local reply = require "seckill.reply"
local errors = require "seckill.errors"
local line = require "seckill.line"
local standing = require "standing"
local json = require "seckill.json"

local ngx = ngx
local var = ngx.var
local log = ngx.log
local WARN = ngx.WARN
local get_method = ngx.req.get_method
local now = ngx.now
local start_time = ngx.req.start_time
local str_sub = string.sub
local str_match = string.match
local tostring = tostring
local pairs = pairs

local _M = {}

local flags, admitter, limiters, counters, latencies, lines

-- The admission's 429 says when to retry in its body too, like every 429 with a computed wait.
local ADMISSION_FIELDS = { retryAfter = 1 }

-- settings: limits ({ [route] = { rate = "20r/s", burst = 40 } }), flag_recheck (s), flags_dict, admission
-- ({ rate = per second, in_flight = purchases }), admission_dict,
-- metrics_dict, latency_dict, lines_dict, line_secret, line_fetch (the progress location's prefix), answers (the path
-- of messages/answers.json).
function _M.init(settings)
    errors.load(settings.answers)
    counters = metrics.new(settings.metrics_dict)
    latencies = latency.new(settings.latency_dict)
    flags = sale_flags.new(settings.flags_dict, settings.flag_recheck)
    admitter = admission.new(settings.admission_dict, settings.admission)
    lines = line.new(settings.lines_dict, settings.line_secret, settings.line_fetch)
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

-- Purchase, rewrite phase (set_by_lua): the 410 body when the sale is flagged (SOLD_OUT or SALE_ENDED), else "".
-- It runs before limit_req (preaccess): flag answers are as cheap as a 429 and final, so they do not use up the
-- client's allowance, and a client retrying a sold-out sale keeps hearing SOLD_OUT (stop), not RATE_LIMITED (retry
-- later). A purchase let through as the flag's re-check is marked in ngx.ctx for the header filter.
function _M.flag_body()
    if get_method() ~= "POST" then
        return ""
    end
    -- The location's regex captures the one spelling of an id the service accepts (no sign, no leading zero).
    local id = var.sale_id
    if not id or id == "" then
        return ""
    end
    local code, recheck = flags:answer(id)
    if code then
        counters:incr(metrics.SHORT_CIRCUITS)
        return sale_flags.body(code, id)
    end
    if recheck then
        ngx.ctx.recheck = true
    end
    return ""
end

-- Challenge and path of a protected sale (issue 15), rewrite phase: the 410 body while the sale's flag is fresh,
-- else "" (on to the service). Only the fresh mark counts: once it runs out the steps reach the service again, so
-- a shopper can get a path for the purchase that re-checks the flag (a pathless purchase of a protected sale is
-- refused before Redis and could never clear it).
function _M.gate_flag_body()
    local id = var.sale_id
    local code = id and id ~= "" and flags:fresh(id)
    if code then
        counters:incr(metrics.SHORT_CIRCUITS)
        return sale_flags.body(code, id)
    end
    return ""
end

-- Purchase, access phase (after the per-IP limits, so a client over its own limit is told so and takes no share of
-- the total): the edge's total admission. A refusal is 429 RATE_LIMITED with Retry-After (errors.lua says why not
-- 503); an admitted purchase is marked in $edge_admitted, a variable rather than ngx.ctx because an error_page
-- redirect (the service unreachable) clears ngx.ctx before the log phase.
function _M.admit()
    local ok, limit = admitter:admit()
    if not ok then
        counters:incr(metrics.label(metrics.ADMISSION_REFUSED, "limit", limit))
        return reply.error(errors.ADMISSION, ADMISSION_FIELDS)
    end
    var.edge_admitted = "1"
end

local function learn(id, code, recheck)
    local ok, err = flags:learn(id, code)
    if not ok then
        log(WARN, "failed to set the ", code, " flag of sale ", id, ": ", err)
        return
    end
    counters:incr(metrics.label(metrics.FLAGS_SET, "source", "upstream"))
    if recheck then
        counters:incr(metrics.label(metrics.RECHECKS, "result", "confirmed"))
    end
end

-- Purchase, header filter: the service's 410 sets the sale's flag (SOLD_OUT carries X-Seckill-Sold-Out; the
-- contract's only other 410 on this route is SALE_ENDED, told apart by the header's absence rather than by reading
-- the body, which would cost every flag answer a body filter). A re-check's other answers decide the flag: 2xx means
-- stock is back (cleared); anything else (401, 409, 429, 503...) says nothing about stock, and the flag stays until
-- the next re-check. Answers of other purchases never clear a flag: one accepted just before the sell-out may come
-- back after it. ($upstream_status is empty on the edge's own answers, including the flag's.)
function _M.purchase_header_filter()
    local status = ngx.status
    if status == reply.GONE then
        if var.upstream_http_x_seckill_sold_out then
            return learn(var.sale_id, sale_flags.SOLD_OUT, ngx.ctx.recheck)
        end
        if (var.upstream_status or "") ~= "" then
            return learn(var.sale_id, sale_flags.SALE_ENDED, ngx.ctx.recheck)
        end
        return
    end
    if (var.upstream_status or "") == "" or not ngx.ctx.recheck then
        return
    end
    if status >= 200 and status < 300 then
        flags:clear(var.sale_id)
        counters:incr(metrics.label(metrics.RECHECKS, "result", "cleared"))
    else
        counters:incr(metrics.label(metrics.RECHECKS, "result", "kept"))
    end
end

-- An ISO-8601 instant of epoch ms, as the service's Instant.toString() writes it (milliseconds only when not 0).
local function iso(ms)
    local s = math.floor(ms / 1000)
    local frac = ms - s * 1000
    return os.date("!%Y-%m-%dT%H:%M:%S", s) .. (frac > 0 and string.format(".%03d", frac) or "") .. "Z"
end

-- A JSON null where the contract writes one (a Lua nil drops the field).
local function nullable(v)
    if v == nil then
        return json.null
    end
    return v
end

-- Sends a JSON text the service wrote (passed through) or the flags wrote (seckill.flags).
local function send_json(status, body)
    ngx.header.content_type = "application/json"
    ngx.header[reply.ANSWERED_BY] = "edge"
    return reply.send(status, body)
end

-- The fields of each answer written here, in the contract's order (docs/waiting-room.md).
local LAPSED_FIELDS = { "code", "saleId", "message" }
local ADMITTED_FIELDS = { "code", "saleId", "admittedUntil", "ticket" }
local WAITLIST_FIELDS = { "code", "saleId", "position", "ahead", "returning", "returnBy", "refreshSeconds",
                          "approximate", "ticket" }
local IN_LINE_FIELDS = { "code", "saleId", "position", "ahead", "etaSeconds", "refreshSeconds", "approximate",
                         "ticket", "drawAt" }
local NOT_ADMITTED_FIELDS = { "code", "saleId", "position", "ahead", "retryAfter", "message" }

-- An answer of the shared table (messages/answers.json) with fields of its own.
local function shared_answer(name, keys, fields)
    local status, code, message = errors.get(name)
    fields.code = code
    fields.message = message
    return reply.json(status, keys, fields)
end

-- A poll's answer, field by field as the service's LineService writes it.
local function line_answer(id, s, ticket)
    local code = s.code
    counters:incr(metrics.label(metrics.LINE_ANSWERS, "code", code))
    if code == standing.SOLD_OUT then
        ngx.header["X-Seckill-Sold-Out"] = "1"
        return send_json(reply.GONE, sale_flags.body(sale_flags.SOLD_OUT, id))
    elseif code == standing.ENDED then
        return send_json(reply.GONE, sale_flags.body(sale_flags.SALE_ENDED, id))
    elseif code == standing.LAPSED then
        return shared_answer(errors.ADMISSION_LAPSED, LAPSED_FIELDS, { saleId = json.id(id) })
    elseif code == standing.ADMITTED then
        return reply.json(reply.OK, ADMITTED_FIELDS, { code = code, saleId = json.id(id),
                                                       admittedUntil = iso(s.until_ms), ticket = ticket })
    elseif code == standing.WAITLIST then
        return reply.json(reply.OK, WAITLIST_FIELDS, { code = code, saleId = json.id(id), position = s.position,
                                                       ahead = s.ahead, returning = s.returning,
                                                       returnBy = s.return_by, refreshSeconds = s.refresh,
                                                       approximate = s.approximate, ticket = ticket })
    end
    return reply.json(reply.OK, IN_LINE_FIELDS, { code = code, saleId = json.id(id), position = nullable(s.position),
                                                  ahead = nullable(s.ahead), etaSeconds = nullable(s.eta),
                                                  refreshSeconds = s.refresh, approximate = s.approximate,
                                                  ticket = ticket, drawAt = s.draw_at })
end

-- The line's progress for a request of sale id, or the answer the service gave instead (no such sale, no line).
local function progress_or_answer(id)
    local p, status, body = lines:progress(id)
    if p then
        return p
    end
    if status == 404 or status == 409 then
        return send_json(status, body)
    end
    return reply.error(errors.UNAVAILABLE)
end

-- Line of a waiting-room sale, access phase: a poll (GET) is answered here; a join (POST) goes on to the service.
function _M.line()
    local method = get_method()
    if method == "POST" then
        return
    end
    if method ~= "GET" and method ~= "HEAD" then
        return reply.method_not_allowed("GET, POST")
    end
    local id = var.sale_id
    local raw = var.http_x_line_ticket
    local t, refusal = lines:check(raw, id)
    if not t then
        counters:incr(metrics.label(metrics.LINE_ANSWERS, "code", refusal))
        return reply.error(refusal == line.TICKET_EXPIRED and errors.TICKET_EXPIRED or errors.TICKET_INVALID)
    end
    local p = progress_or_answer(id)
    return line_answer(id, standing.of(p, t, now() * 1000), raw)
end

local function not_admitted(id, position, ahead, retry)
    counters:incr(metrics.label(metrics.LINE_ANSWERS, "code", "NOT_ADMITTED"))
    ngx.header[reply.RETRY_AFTER] = retry
    return shared_answer(errors.NOT_ADMITTED, NOT_ADMITTED_FIELDS,
        { saleId = json.id(id), position = nullable(position), ahead = nullable(ahead), retryAfter = retry })
end

-- Purchase, end of the rewrite phase: a sale with a line lets through only an admitted ticket of its own (the
-- service checks again that it is the buyer's); a sold-out or ended line goes on too, for the service's answer.
-- A purchase without a ticket goes on while this edge has not learned that the sale has a line (the service then
-- refuses it the same way).
function _M.line_gate()
    local id = var.sale_id
    local raw = var.http_x_line_ticket
    if not raw then
        if lines:known(id) then
            return not_admitted(id, nil, nil, 1)
        end
        return
    end
    local t, refusal = lines:check(raw, id)
    if not t then
        return reply.error(refusal == line.TICKET_EXPIRED and errors.TICKET_EXPIRED or errors.TICKET_INVALID)
    end
    local p, status = lines:progress(id)
    if not p then
        -- No line (409) or no sale (404): the service answers the purchase as such.
        return
    end
    local s = standing.of(p, t, now() * 1000)
    if s.code == standing.IN_LINE or s.code == standing.WAITLIST then
        return not_admitted(id, s.position, s.ahead, s.refresh)
    elseif s.code == standing.LAPSED then
        return not_admitted(id, nil, nil, 1)
    end
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
    local limit, long, short = admitter:state()
    return reply.send(reply.OK, counters:render({
        [metrics.FLAGS] = admin.count(flags),
        [metrics.IN_FLIGHT] = admitter:current(),
        [metrics.ADMISSION_LIMIT] = limit,
        [metrics.ADMISSION_LONG] = long,
        [metrics.ADMISSION_SHORT] = short,
    }) .. latencies:render())
end

-- The time the service took to answer an admitted purchase, to adapt the admission by: only answers the service
-- gave (no upstream: nginx failed to reach it) that are not failures (a 5xx, e.g. an open breaker's fast 503, says
-- nothing of its normal time); nil when there is none or nginx tried more than one server.
local function service_time()
    if ngx.status >= 500 then
        return nil
    end
    return tonumber(var.upstream_response_time or "")
end

-- Log phase (server-wide): counts the request and its latency under the route its location set in $edge_route,
-- and gives an admitted purchase back to the admission's in-flight gauge (whatever became of it: answered, failed,
-- abandoned) with the service's answer time, which the admission adapts to.
function _M.log()
    local route = var.edge_route
    if not route or route == "" then
        return
    end
    counters:request(route, ngx.status)
    latencies:observe(route, now() - start_time())
    if route == "purchase" and var.edge_admitted == "1" then
        admitter:leave(service_time())
    end
end

return _M
