-- Every error the edge answers itself, in one table: name -> status, code and a fixed message. Clients act on
-- `code`; `message` is for people and never carries request data or internal detail (that goes to the log).
-- nginx reaches these answers two ways, both ending in the one content handler of location /_edge/error:
--   * its own failures (error_page by status): the status names the answer through BY_STATUS;
--   * a route that refuses on purpose: `set $edge_error <name>; return <status>;` names it exactly.
local json = require "seckill.json"

local ngx = ngx
local log = ngx.log
local io_open = io.open
local assert = assert
local WARN = ngx.WARN
local tonumber = tonumber
local tostring = tostring
local pairs = pairs
local type = type

local _M = {}

-- name -> { status, code, message[, retryAfter] }, read once at start (load) from messages/answers.json, the one
-- table of the answers' codes and messages that the service reads too (docs/contract.md). The status is what the
-- client gets: nginx keeps the original status of an error_page redirect without `=`, so these agree with BY_STATUS.
local ANSWERS

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
_M.NOT_ADMITTED = "not_admitted"
_M.ADMISSION_LAPSED = "admission_lapsed"
_M.SOLD_OUT = "sold_out"
_M.SALE_ENDED = "sale_ended"
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

-- Reads the answers' table (messages/answers.json) at path; fails the start when it cannot.
function _M.load(path)
    local f = assert(io_open(path, "rb"), "cannot read the answers' messages at " .. tostring(path))
    local text = f:read("*a")
    f:close()
    local answers, err = json.decode(text)
    assert(type(answers) == "table", "bad JSON in " .. path .. ": " .. tostring(err))
    for name, a in pairs(answers) do
        assert(type(a.status) == "number" and type(a.code) == "string" and type(a.message) == "string",
            "answer " .. name .. " in " .. path .. " needs a status, code and message")
    end
    for _, name in pairs(BY_STATUS) do
        assert(answers[name], "no answer " .. name .. " in " .. path)
    end
    ANSWERS = answers
end

-- The status, code and message of the named answer (for answers other modules write with fields of their own).
function _M.get(name)
    local a = ANSWERS[name]
    return a.status, a.code, a.message
end

-- An error body's fields in order; fields: more of them (only retryAfter).
local FIELDS = { "code", "message", "retryAfter", "requestId" }

-- status, body (JSON) and Retry-After (nil: none) of the named answer, with the request id the service also got.
-- fields: more fields of the answer (a table), or nil.
function _M.answer(name, request_id, fields)
    local a = ANSWERS[name]
    local body = { code = a.code, message = a.message, requestId = request_id }
    if fields then
        for k, v in pairs(fields) do
            body[k] = v
        end
    end
    return a.status, json.object(FIELDS, body), a.retryAfter and tostring(a.retryAfter)
end

return _M
