-- JSON answers written by the edge itself, and the header names and statuses they use.
-- Every answer ends the request (ngx.exit with a 2xx code works in rewrite, access and content phases alike).
local ngx = ngx
local ngx_print = ngx.print
local ngx_exit = ngx.exit
local header = ngx.header
local HTTP_OK = ngx.HTTP_OK

local _M = {
    -- Header names (the same as the service's, so clients handle both alike).
    RETRY_AFTER = "Retry-After",
    LIMIT = "X-RateLimit-Limit",
    REMAINING = "X-RateLimit-Remaining",
    RESET = "X-RateLimit-Reset",
    CACHE_CONTROL = "Cache-Control",
    ALLOW = "Allow",
    CONTENT_LENGTH = "Content-Length",

    -- Statuses.
    OK = 200,
    BAD_REQUEST = 400,
    NOT_FOUND = 404,
    METHOD_NOT_ALLOWED = 405,
    GONE = 410,
    TOO_MANY_REQUESTS = 429,
    UNAVAILABLE = 503,
}

-- Seconds a client should wait after the edge found the service down or slow.
local UNAVAILABLE_RETRY_AFTER = "1"
local UNAVAILABLE_BODY = '{"code":"UNAVAILABLE","message":"the service is unavailable; retry shortly"}'
local NOT_FOUND_BODY = '{"code":"NOT_FOUND","message":"no such route"}'

-- Sends status and body (already JSON) and ends the request. The body's type is the location's default_type.
function _M.send(status, body)
    ngx.status = status
    header[_M.CACHE_CONTROL] = "no-store"
    header[_M.CONTENT_LENGTH] = #body
    ngx_print(body)
    return ngx_exit(HTTP_OK)
end

function _M.error(status, code, message)
    return _M.send(status, '{"code":"' .. code .. '","message":"' .. message .. '"}')
end

function _M.not_found()
    return _M.send(_M.NOT_FOUND, NOT_FOUND_BODY)
end

function _M.method_not_allowed(allow)
    header[_M.ALLOW] = allow
    return _M.error(_M.METHOD_NOT_ALLOWED, "METHOD_NOT_ALLOWED", "allowed: " .. allow)
end

-- The service could not be reached or did not answer in time (nginx's own 502/504).
function _M.unavailable()
    header[_M.RETRY_AFTER] = UNAVAILABLE_RETRY_AFTER
    return _M.send(_M.UNAVAILABLE, UNAVAILABLE_BODY)
end

return _M
