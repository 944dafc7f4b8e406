-- Waiting rooms at the edge (docs/waiting-room.md): checks a line ticket's signature without a call, learns each
-- line's progress from the service at most once per interval per edge (one shared dict entry per sale, like the sold-
-- out flags), and answers a buyer's poll from the ticket and that progress alone, by the very rules of the service's
-- Standing.java. A line of 100,000 buyers polling costs the service one progress read per edge and interval.
--
-- Ticket: l1.<sale>.<user>.<p|s><value>.<expires>.<base64url HMAC-SHA1 of everything before the last dot>
-- (p: a pre-queue place ordered by value, a random number below 2^52; s: the value-th place after the draw).
local ngx = ngx
local shared = ngx.shared
local hmac_sha1 = ngx.hmac_sha1
local encode_base64 = ngx.encode_base64
local capture = ngx.location.capture
local ngx_sleep = ngx.sleep
local ngx_now = ngx.now
local str_match = string.match
local str_gsub = string.gsub
local cjson = require "cjson.safe"
local json_null = cjson.null
local math_floor = math.floor
local math_ceil = math.ceil
local math_max = math.max
local math_min = math.min
local tonumber = tonumber
local tostring = tostring
local setmetatable = setmetatable
local pairs = pairs
local type = type

local _M = {
    TICKET_INVALID = "TICKET_INVALID",
    TICKET_EXPIRED = "TICKET_EXPIRED",
    -- Standings.
    IN_LINE = "IN_LINE",
    WAITLIST = "WAITLIST",
    ADMITTED = "ADMITTED",
    LAPSED = "ADMISSION_LAPSED",
    SOLD_OUT = "SOLD_OUT",
    ENDED = "SALE_ENDED",
}
local mt = { __index = _M }

local ALL = 4503599627370496
local TICKET = "^l1%.([1-9]%d*)%.([1-9]%d*)%.([ps])(%d+)%.(%d+)%.([A-Za-z0-9_-]+)$"
-- Standing.java's bounds on the poll interval a client is told (the upper one after the draw comes in the progress).
local MIN_REFRESH, MAX_PREQUEUE_REFRESH = 1, 30
-- How long a request that finds no progress yet waits for the one fetching it, and how long a fetch may take.
local WAIT_FOR_FETCH, WAIT_STEP, FETCH_LOCK = 2, 0.02, 3
local KEPT = 86400

-- dict_name: the lines' shared dict; secret: the tickets' HMAC secret (the service's seckill.line.secret);
-- fetch_prefix: the internal location that proxies a sale's progress (prefix .. id).
function _M.new(dict_name, secret, fetch_prefix)
    local dict = shared[dict_name]
    assert(dict, "no lua_shared_dict " .. tostring(dict_name))
    assert(type(secret) == "string" and #secret >= 32,
        "SECKILL_LINE_SECRET must be set to at least 32 bytes (the service's seckill.line.secret)")
    return setmetatable({ dict = dict, secret = secret, fetch_prefix = fetch_prefix, decoded = {} }, mt)
end

local function b64url(bytes)
    return (str_gsub(str_gsub(encode_base64(bytes, true), "+", "-"), "/", "_"))
end

-- The ticket of sale id (canonical) in raw, or nil and the code of its refusal.
function _M.check(self, raw, id)
    if not raw then
        return nil, _M.TICKET_INVALID
    end
    local sale, user, kind, value, expires, sig = str_match(raw, TICKET)
    if not sale or #value > 16 or #expires > 12 then
        return nil, _M.TICKET_INVALID
    end
    local payload = "l1." .. sale .. "." .. user .. "." .. kind .. value .. "." .. expires
    if b64url(hmac_sha1(self.secret, payload)) ~= sig or sale ~= id then
        return nil, _M.TICKET_INVALID
    end
    if ngx_now() >= tonumber(expires) then
        return nil, _M.TICKET_EXPIRED
    end
    return { user = user, prequeue = kind == "p", value = tonumber(value), raw = raw }
end

-- The service's progress answer (LineService.progress): an object of numbers and booleans, and the steps as an
-- array of [ms, admitted, cut]; a null field is absent. nil when the body is not such an object.
local function decode(body)
    local p = cjson.decode(body)
    if type(p) ~= "table" then
        return nil
    end
    for k, v in pairs(p) do
        if v == json_null then
            p[k] = nil
        end
    end
    if type(p.steps) ~= "table" then
        p.steps = {}
    end
    return p
end

-- Fetches the sale's progress from the service into the dict; returns the body, or nil and the service's status.
local function fetch(self, id)
    local res = capture(self.fetch_prefix .. id)
    if res.status ~= 200 then
        return nil, res.status, res.body
    end
    local p = decode(res.body)
    if not p then
        return nil, 502, res.body
    end
    self.dict:set("p:" .. id, res.body, KEPT)
    self.dict:set("fresh:" .. id, true, math_max(0.1, (p.refreshMs or 1000) / 1000))
    return res.body
end

-- The sale's progress (decoded once per worker per version), fetched when stale by one request per edge (the
-- others use the previous one meanwhile). nil, status, body: the service answered something else (no such sale, no
-- line), or nothing is known yet and the fetch failed.
function _M.progress(self, id)
    local dict = self.dict
    local body = dict:get("p:" .. id)
    if not dict:get("fresh:" .. id) and dict:add("fetching:" .. id, true, FETCH_LOCK) then
        local fetched, status, other = fetch(self, id)
        dict:delete("fetching:" .. id)
        if fetched then
            body = fetched
        elseif not body then
            return nil, status, other
        end
    end
    if not body then
        -- Another request is fetching the first progress of this sale: wait for it, briefly.
        local waited = 0
        while not body and waited < WAIT_FOR_FETCH do
            ngx_sleep(WAIT_STEP)
            waited = waited + WAIT_STEP
            body = dict:get("p:" .. id)
        end
        if not body then
            return nil, 503
        end
    end
    local cached = self.decoded[id]
    if cached and cached.body == body then
        return cached.p
    end
    local p = decode(body)
    if not p then
        return nil, 503
    end
    self.decoded[id] = { body = body, p = p }
    return p
end

-- Whether the line knows the sale has a waiting room (some request of it was answered from a progress already).
function _M.known(self, id)
    return self.dict:get("p:" .. id) ~= nil
end

local function place_admitted(p, t, admitted, cut)
    if t.prequeue then
        return admitted >= p.prequeue or t.value <= cut
    end
    return admitted >= p.prequeue + t.value
end

-- When the ticket's place was admitted (ms), or nil when not (yet).
local function admitted_at(p, t)
    if not p.drawn or not place_admitted(p, t, p.admitted, p.cut) then
        return nil
    end
    local steps = p.steps
    for i = 1, #steps do
        local s = steps[i]
        if place_admitted(p, t, s[2], s[3]) then
            return s[1]
        end
    end
    return steps[1] and steps[1][1] or 0
end

local function position(p, t)
    if not t.prequeue then
        return p.prequeue + t.value
    end
    local estimate = math_max(1, math_min(p.prequeue, math_ceil(t.value / ALL * p.prequeue)))
    if t.value > p.cut and p.admitted < p.prequeue then
        return math_max(estimate, p.admitted + 1)
    end
    return estimate
end

local function round(n)
    local scale = 1
    while math_floor(n / scale) >= 100 do
        scale = scale * 10
    end
    return math_floor(n / scale + 0.5) * scale
end

local function clamp(seconds, max)
    return math_max(MIN_REFRESH, math_min(max, math_floor(seconds)))
end

-- Where the holder of ticket t stands at now (ms): { code, ... } with the fields of the answer (Standing.java). The
-- figures that do not depend on the ticket are the service's, from the progress as they are: rate (of the ETA),
-- maxRefreshSeconds, and the instants drawAt and returnBy as the service writes them.
function _M.standing(p, t, now)
    if now >= p.endsAt then
        return { code = _M.ENDED }
    end
    local at = admitted_at(p, t)
    local stock_gone = p.remaining == 0
    local may_return = p.mayReturn > 0
    if at then
        if stock_gone and not may_return then
            return { code = _M.SOLD_OUT }
        end
        local until_ms = at + p.admitMs
        if now < until_ms then
            return { code = _M.ADMITTED, until_ms = until_ms }
        end
        return { code = _M.LAPSED }
    end
    if not p.drawn then
        local to_draw = math_max(0, math_floor(p.startsAt / 1000) - math_floor(now / 1000))
        return { code = _M.IN_LINE, refresh = clamp(to_draw / 10, MAX_PREQUEUE_REFRESH), draw_at = p.drawAt,
                 approximate = t.prequeue }
    end
    local pos = position(p, t)
    local ahead = math_max(0, pos - p.admitted - 1)
    if t.prequeue then
        ahead = round(ahead)
    end
    if stock_gone then
        if not may_return then
            return { code = _M.SOLD_OUT }
        end
        return { code = _M.WAITLIST, position = pos, ahead = ahead, returning = p.mayReturn,
                 return_by = p.returnBy, refresh = p.maxRefreshSeconds, approximate = t.prequeue }
    end
    local rate = p.rate or 0
    local eta = rate > 0 and math_ceil(ahead / rate) or nil
    return { code = _M.IN_LINE, position = pos, ahead = ahead, eta = eta,
             refresh = clamp(eta and eta / 10 or 2, p.maxRefreshSeconds), approximate = t.prequeue }
end

return _M
