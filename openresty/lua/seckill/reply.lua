-- Answers written by the edge itself, and the header names and statuses they use.
-- Every answer ends the request (ngx.exit with a 2xx code works in rewrite, access and content phases alike).
local errors = require "seckill.errors"
local json = require "seckill.json"

local ngx = ngx
local var = ngx.var
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
    -- On every answer the edge writes itself (its errors and refusals, not the flag's copies of the service's
    -- answers), so a client can tell the edge's 429 from the service's 429 of the same code.
    ANSWERED_BY = "X-Seckill-Answered-By",

    -- Statuses.
    OK = 200,
    GONE = 410,
}

local JSON = "application/json"

-- Sends status and body and ends the request. The body's type is the location's default_type.
function _M.send(status, body)
    ngx.status = status
    header[_M.CACHE_CONTROL] = "no-store"
    header[_M.CONTENT_LENGTH] = #body
    ngx_print(body)
    return ngx_exit(HTTP_OK)
end

-- Sends the edge's error answer `name` (seckill.errors) with the request id the service also got (X-Request-Id);
-- fields is an optional table of more fields. The failed request may already carry a type of its own (text/html for
-- a page): an error is JSON whatever it was.
function _M.error(name, fields)
    local status, body, retry_after = errors.answer(name, var.edge_request_id, fields)
    header.content_type = JSON
    header[_M.ANSWERED_BY] = "edge"
    if retry_after then
        header[_M.RETRY_AFTER] = retry_after
    end
    return _M.send(status, body)
end

-- Sends a JSON answer the edge writes itself, marked as the edge's: status, and the body's fields (a table) in the
-- order of keys (seckill.json).
function _M.json(status, keys, fields)
    header.content_type = JSON
    header[_M.ANSWERED_BY] = "edge"
    return _M.send(status, json.object(keys, fields))
end

function _M.method_not_allowed(allow)
    header[_M.ALLOW] = allow
    return _M.error("method_not_allowed")
end

return _M
