-- The operator-only flag admin API (the location restricts the caller; this module routes and answers). A sale's
-- flag is SOLD_OUT or SALE_ENDED (flags.lua); the path keeps its first name, sold-out, for either.
--   GET    /edge/flags                          {"defaultTtlSeconds":5,"flags":[{"type":"sold-out","saleId":7,
--                                                "code":"SOLD_OUT","held":true,"ttlSeconds":3.2}]}
--                                                (type "ended" for SALE_ENDED; the default is SECKILL_EDGE_SOLDOUT_TTL)
--   GET    /edge/flags/sold-out/{saleId}        {"saleId":7,"soldOut":true,"code":"SOLD_OUT","held":true,
--                                                "ttlSeconds":3.2}, or {"saleId":7,"soldOut":false}
--   PUT    /edge/flags/sold-out/{saleId}[?ttl=N] a SOLD_OUT flag for N seconds, not re-checked (default:
--                                                SECKILL_EDGE_SOLDOUT_TTL)
--   DELETE /edge/flags/sold-out/{saleId}        clears the sale's flag, whichever (the service calls this on
--                                                restock); idempotent
-- held: learned from the service and re-checked every interval instead of ending; ttlSeconds: until the next
-- re-check (held) or the end (not held); absent when a re-check is due (the next purchase makes it).
local reply = require "seckill.reply"
local sale_flags = require "seckill.flags"
local metrics = require "seckill.metrics"
local json = require "seckill.json"

local ngx = ngx
local var = ngx.var
local get_method = ngx.req.get_method
local log = ngx.log
local ERR = ngx.ERR
local str_match = string.match
local math_floor = math.floor
local tonumber = tonumber
local ipairs = ipairs

local _M = {}

-- The answers' fields in order.
local FLAG_FIELDS = { "saleId", "soldOut", "code", "held", "ttlSeconds" }
local LISTED_FIELDS = { "type", "saleId", "code", "held", "ttlSeconds" }
local LIST_FIELDS = { "defaultTtlSeconds", "flags" }
local CLEARED_FIELDS = { "saleId", "soldOut", "cleared" }

local function send(status, keys, body)
    return reply.send(status, json.object(keys, body))
end

-- Longest TTL an operator may set: a flag must never outlive a forgotten restock by more than a day.
local MAX_TTL = 86400
-- At most this many flags are listed (the walk locks the dict).
local MAX_LISTED = 1024

-- Seconds to the millisecond.
local function ttl_number(ttl)
    return math_floor(ttl * 1000 + 0.5) / 1000
end

-- Adds the fields every flag shows after its saleId: code, held and, unless a re-check is due, ttlSeconds.
local function flag_fields(out, s)
    out.code = s.code
    out.held = s.held
    if s.ttl then
        out.ttlSeconds = ttl_number(s.ttl)
    end
    return out
end

local function flag_json(id, s)
    if not s then
        return { saleId = json.id(id), soldOut = false }
    end
    return flag_fields({ saleId = json.id(id), soldOut = s.code == sale_flags.SOLD_OUT }, s)
end

local TYPES = { [sale_flags.SOLD_OUT] = "sold-out", [sale_flags.SALE_ENDED] = "ended" }

local function list(flags)
    local items = {}
    for _, f in ipairs(flags:list(MAX_LISTED)) do
        items[#items + 1] = json.object(LISTED_FIELDS, flag_fields({ type = TYPES[f.code], saleId = json.id(f.id) }, f))
    end
    return send(reply.OK, LIST_FIELDS, { defaultTtlSeconds = flags.default_ttl, flags = json.raw(json.array(items)) })
end

-- The TTL asked for (nil: the default), or nil and the name of the error answer.
local function requested_ttl()
    local raw = var.arg_ttl
    if raw == nil or raw == "" then
        return nil
    end
    local ttl = str_match(raw, "^%d+$") and tonumber(raw)
    if not ttl or ttl < 1 or ttl > MAX_TTL then
        return nil, "bad_flag_ttl"
    end
    return ttl
end

local function one(flags, counters, id, method)
    if method == "GET" then
        return send(reply.OK, FLAG_FIELDS, flag_json(id, flags:state(id)))
    end
    if method == "PUT" then
        local ttl, refusal = requested_ttl()
        if refusal then
            return reply.error(refusal)
        end
        local set, err = flags:set(id, ttl)
        if not set then
            log(ERR, "failed to set the sold-out flag of sale ", id, ": ", err)
            return reply.error("flag_unavailable")
        end
        counters:incr(metrics.label(metrics.FLAGS_SET, "source", "admin"))
        return send(reply.OK, FLAG_FIELDS, flag_json(id, flags:state(id)))
    end
    if method == "DELETE" then
        local was = flags:clear(id)
        if was then
            counters:incr(metrics.FLAGS_CLEARED)
        end
        return send(reply.OK, CLEARED_FIELDS,
            { saleId = json.id(id), soldOut = false, cleared = was and true or false })
    end
    return reply.method_not_allowed("GET, PUT, DELETE")
end

function _M.handle(flags, counters)
    local uri = var.uri
    local method = get_method()
    if uri == "/edge/flags" or uri == "/edge/flags/" then
        if method ~= "GET" then
            return reply.method_not_allowed("GET")
        end
        return list(flags)
    end
    local raw = str_match(uri, "^/edge/flags/sold%-out/([^/]+)$")
    if not raw then
        return reply.error("not_found")
    end
    local id = sale_flags.canonical_id(raw)
    if not id then
        return reply.error("bad_flag_id")
    end
    return one(flags, counters, id, method)
end

-- Flags currently set, for the metrics gauge (bounded like the listing).
function _M.count(flags)
    return #flags:list(MAX_LISTED)
end

return _M
