-- Every error the edge answers itself, in one table: name -> status, code and a fixed message. Clients act on
-- `code`; `message` is for people and never carries request data or internal detail (that goes to the log).
-- nginx reaches these answers two ways, both ending in the one content handler of location /_edge/error:
--   * its own failures (error_page by status): the status names the answer through BY_STATUS;
--   * a route that refuses on purpose: `set $edge_error <name>; return <status>;` names it exactly.
local ngx = ngx
local log = ngx.log
local WARN = ngx.WARN
local tonumber = tonumber
local tostring = tostring

local _M = {}

-- status, code, message[, Retry-After seconds]. The status is what the client gets: nginx keeps the original status
-- of an error_page redirect without `=`, so these agree with BY_STATUS below.
local ANSWERS = {
    bad_request = { 400, "BAD_REQUEST", "malformed request" },
    bad_path = { 400, "BAD_REQUEST", "the path is not in its plain form" },
    bad_flag_id = { 400, "BAD_REQUEST", "saleId must be 1 to 19 digits without a leading zero" },
    bad_flag_ttl = { 400, "BAD_REQUEST", "ttl must be whole seconds from 1 to one day" },
    uri_too_long = { 414, "BAD_REQUEST", "request line too long" },
    headers_too_large = { 400, "BAD_REQUEST", "request headers too large" },
    not_found = { 404, "NOT_FOUND", "no such route" },
    sale_not_found = { 404, "SALE_NOT_FOUND", "no such sale" },
    order_not_found = { 404, "ORDER_NOT_FOUND", "no such order" },
    method_not_allowed = { 405, "METHOD_NOT_ALLOWED", "method not allowed on this route" },
    length_required = { 411, "LENGTH_REQUIRED", "a body needs a Content-Length" },
    precondition_failed = { 412, "PRECONDITION_FAILED", "precondition failed" },
    too_large = { 413, "PAYLOAD_TOO_LARGE", "request body too large" },
    range_not_satisfiable = { 416, "RANGE_NOT_SATISFIABLE", "range not satisfiable" },
    rate_limited = { 429, "RATE_LIMITED", "too many requests from this address; retry later" },
    too_many_connections = { 429, "RATE_LIMITED", "too many open requests from this address; retry later", 1 },
    -- The edge's total admission (admission.lua): a limit on the rate of the whole system rather than of this client,
    -- but a limit all the same, so 429 (slow down, retry after), as API gateways answer a global quota; 503 stays
    -- for failures, which this is not: in a flash sale refusing most of the crowd is the edge working.
    admission = { 429, "RATE_LIMITED", "too many purchases at once; retry shortly", 1 },
    -- Waiting rooms (line.lua): the same codes and messages as the service's.
    ticket_invalid = { 403, "TICKET_INVALID",
                       "this line ticket is not valid for you or for this sale: join the line for one" },
    ticket_expired = { 403, "TICKET_EXPIRED", "this line ticket has expired" },
    internal = { 500, "INTERNAL", "edge error" },
    not_implemented = { 501, "NOT_IMPLEMENTED", "transfer encoding not supported" },
    unavailable = { 503, "UNAVAILABLE", "the service is unavailable; retry shortly", 1 },
    flag_unavailable = { 503, "UNAVAILABLE", "the flag could not be stored; retry shortly", 1 },
    http_version = { 505, "HTTP_VERSION_NOT_SUPPORTED", "HTTP version not supported" },
}

-- The answer to each status nginx raises itself (the error_page list in conf.d/seckill.conf).
-- 403 and 404 alike are "no such route" (403: a file the workers may not read); 494 is nginx's "headers too large".
local BY_STATUS = {
    [400] = "bad_request",
    [403] = "not_found",
    [404] = "not_found",
    [405] = "method_not_allowed",
    [411] = "length_required",
    [412] = "precondition_failed",
    [413] = "too_large",
    [414] = "uri_too_long",
    [416] = "range_not_satisfiable",
    [429] = "rate_limited",
    [494] = "headers_too_large",
    [500] = "internal",
    [501] = "not_implemented",
    [502] = "unavailable",
    [503] = "unavailable",
    [504] = "unavailable",
    [505] = "http_version",
}

-- Names, so callers compare against a constant rather than a string literal.
_M.RATE_LIMITED = "rate_limited"
_M.TOO_MANY_CONNECTIONS = "too_many_connections"
_M.UNAVAILABLE = "unavailable"
_M.ADMISSION = "admission"
_M.TICKET_INVALID = "ticket_invalid"
_M.TICKET_EXPIRED = "ticket_expired"

-- The answer's name for a route's own name (may be nil or "") and nginx's status; an unknown status is "internal".
function _M.name(name, status)
    if name and name ~= "" then
        if ANSWERS[name] then
            return name
        end
        log(WARN, "no edge answer named ", name, ": answering ", status)
    end
    return BY_STATUS[tonumber(status)] or "internal"
end

-- status, body (JSON) and Retry-After (nil: none) of the named answer. request_id must be JSON-safe: nginx's hex
-- $request_id, or a client's id the edge accepted only if it matched [A-Za-z0-9._:-]. extra is a JSON fragment of
-- more fields ('"retryAfter":1').
function _M.answer(name, request_id, extra)
    local a = ANSWERS[name]
    local body = '{"code":"' .. a[2] .. '","message":"' .. a[3] .. '"'
    if extra then
        body = body .. ',' .. extra
    end
    return a[1], body .. ',"requestId":"' .. request_id .. '"}', a[4] and tostring(a[4])
end

return _M
