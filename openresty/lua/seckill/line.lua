-- Waiting rooms at the edge (docs/waiting-room.md): checks a line ticket's signature without a call, learns each
-- line's progress from the service at most once per interval per edge (one shared dict entry per sale, like the sold-
-- out flags), and answers a buyer's poll from the ticket and that progress alone, by standing.lua (the top-level lua/
-- folder), the file the service runs in Redis for its own answers: one set of rules. A line of 100,000 buyers polling
-- costs the service one progress read per edge and interval.
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
local standing = require "standing"
local json_null = cjson.null
local math_max = math.max
local tonumber = tonumber
local tostring = tostring
local setmetatable = setmetatable
local type = type

local _M = {
    TICKET_INVALID = "TICKET_INVALID",
    TICKET_EXPIRED = "TICKET_EXPIRED",
}
local mt = { __index = _M }

local TICKET = "^l1%.([1-9]%d*)%.([1-9]%d*)%.([ps])(%d+)%.(%d+)%.([A-Za-z0-9_-]+)$"
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

-- The service's progress answer (PublishedProgress) decoded, or nil when the body is not such an object.
local function decode(body)
    return standing.progress(cjson.decode, body, json_null)
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

return _M
