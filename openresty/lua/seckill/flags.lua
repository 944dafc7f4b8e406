-- Sale flags: once the service has answered a purchase SOLD_OUT or SALE_ENDED, the edge answers that sale's
-- purchases itself with the same 410. Per nginx instance (shared by its workers, in one shared dict); they survive a
-- reload (HUP), not a restart.
--
-- A flag learned from the service does not lapse into a herd. It is two entries:
--   "<id>"       the fresh mark, value the code, TTL the re-check interval: while it lives every purchase is answered
--                from the flag without a second look;
--   "held:<id>"  the flag itself, value the code, kept for a day (a bound on memory, not a lifetime anyone waits for).
-- When the fresh mark runs out, the first purchase to see that re-adds it with `add` (atomic across workers) and
-- goes on to the service as the re-check; every other purchase still gets the flag's answer. So at most one
-- purchase per interval reaches the service, whoever is clicking and whatever their requests hold (no token, a
-- banned address): the re-check's own answer decides (edge.lua), the others' never do. The flag ends when it is
-- cleared (the service's restock call, DELETE /edge/flags/...) or when a re-check is accepted (202: stock is back).
-- An operator's flag (PUT ?ttl=N) is only a fresh mark: it ends after N seconds, without re-checks.
local errors = require "seckill.errors"
local json = require "seckill.json"

local ngx = ngx
local shared = ngx.shared
local str_match = string.match
local str_sub = string.sub
local setmetatable = setmetatable
local tostring = tostring

local _M = {
    SOLD_OUT = "SOLD_OUT",
    SALE_ENDED = "SALE_ENDED",
}
local mt = { __index = _M }

local HELD = "held:"
local HELD_LEN = #HELD
-- How long a learned flag is kept without any traffic re-checking it: a bound on the dict's memory (it also evicts
-- the least recently used entry when full). A flag dropped this way is learned again from the next 410.
local HELD_SECONDS = 86400

-- A sale id has one spelling at the edge and in the service: 1 to 19 ASCII digits without a leading zero
-- (^[1-9][0-9]{0,18}$, the purchase route's regex), so a flag covers every purchase of its sale.
local ID_PATTERN = "^[1-9]%d*$"
local MAX_ID_DIGITS = 19

-- The service's very bodies: code and message from the one table both read (messages/answers.json, seckill.errors),
-- saleId a JSON number. system-tests' SoldOutBodyIT compares the edge's with the service's field by field against
-- the real stack. Each worker keeps the bodies it wrote (the flag answer is the edge's cheapest path), at most
-- MAX_BODIES of them.
local ANSWER = { [_M.SOLD_OUT] = errors.SOLD_OUT, [_M.SALE_ENDED] = errors.SALE_ENDED }
local FIELDS = { [_M.SOLD_OUT] = { "code", "message", "saleId" }, [_M.SALE_ENDED] = { "code", "saleId", "message" } }
local MAX_BODIES = 1024
local bodies, body_count = {}, 0

-- recheck_seconds: the re-check interval of learned flags, and the default lifetime of an operator's flag.
function _M.new(dict_name, recheck_seconds)
    local dict = shared[dict_name]
    assert(dict, "no lua_shared_dict " .. tostring(dict_name))
    assert(type(recheck_seconds) == "number" and recheck_seconds >= 1, "flag re-check interval must be >= 1 s")
    return setmetatable({ dict = dict, default_ttl = recheck_seconds }, mt)
end

-- The id in a raw path segment, or nil when the segment is not an id's one spelling.
function _M.canonical_id(raw)
    if not raw or #raw > MAX_ID_DIGITS or not str_match(raw, ID_PATTERN) then
        return nil
    end
    return raw
end

-- The 410 body of code (SOLD_OUT or SALE_ENDED) for sale id (canonical digits).
function _M.body(code, id)
    local key = code .. id
    local body = bodies[key]
    if body then
        return body
    end
    local _, answer_code, message = errors.get(ANSWER[code])
    body = json.object(FIELDS[code], { code = answer_code, message = message, saleId = json.id(id) })
    if body_count >= MAX_BODIES then
        bodies, body_count = {}, 0
    end
    bodies[key] = body
    body_count = body_count + 1
    return body
end

-- For a purchase of sale id (canonical): the code the edge answers with, or nil when the purchase goes to the
-- service; then the second value is true when it goes as the flag's re-check.
function _M.answer(self, id)
    local dict = self.dict
    local code = dict:get(id)
    if code then
        return code
    end
    local held = dict:get(HELD .. id)
    if not held then
        return nil
    end
    -- The fresh mark ran out: whoever adds it back first re-checks; everyone else keeps the flag's answer. A failed
    -- add for any other reason (no memory) also answers from the flag: better no re-check than a herd.
    if dict:add(id, held, self.default_ttl) then
        return nil, true
    end
    return held
end

-- The code of the sale's fresh mark, or nil: a look that never claims the re-check (only a purchase can re-check).
function _M.fresh(self, id)
    return self.dict:get(id)
end

-- The service answered code (SOLD_OUT or SALE_ENDED): (re)sets the flag, fresh for the interval, held beyond it.
function _M.learn(self, id, code)
    local ok, err = self.dict:set(HELD .. id, code, HELD_SECONDS)
    if ok then
        ok, err = self.dict:set(id, code, self.default_ttl)
    end
    if not ok then
        return nil, err
    end
    return true
end

-- An operator's SOLD_OUT flag for ttl seconds (default: the interval), without re-checks; replaces a learned one.
function _M.set(self, id, ttl)
    ttl = ttl or self.default_ttl
    local ok, err = self.dict:set(id, _M.SOLD_OUT, ttl)
    if not ok then
        return nil, err
    end
    self.dict:delete(HELD .. id)
    return ttl
end

-- Clears the sale's flag, learned or not; returns true when there was one.
function _M.clear(self, id)
    local dict = self.dict
    local was = dict:get(id) ~= nil or dict:get(HELD .. id) ~= nil
    dict:delete(id)
    dict:delete(HELD .. id)
    return was
end

-- The sale's flag as { code, ttl (seconds to the next re-check, or to its end when not held; nil: a re-check is
-- due), held }, or nil when it has none.
function _M.state(self, id)
    local dict = self.dict
    local fresh = dict:get(id)
    local held = dict:get(HELD .. id)
    if not fresh and not held then
        return nil
    end
    return { code = held or fresh, ttl = fresh and (dict:ttl(id)) or nil, held = held ~= nil }
end

-- Up to max flags as { {id = "7", code = "SOLD_OUT", ttl = 3.2, held = true}, ... } (get_keys locks the dict while
-- it walks: keep max small; a learned flag has two keys, so max bounds the keys looked at).
function _M.list(self, max)
    local keys = self.dict:get_keys(max)
    local seen, flags = {}, {}
    for i = 1, #keys do
        local key = keys[i]
        local id = str_sub(key, 1, HELD_LEN) == HELD and str_sub(key, HELD_LEN + 1) or key
        if not seen[id] then
            seen[id] = true
            local s = self:state(id)
            if s then
                s.id = id
                flags[#flags + 1] = s
            end
        end
    end
    return flags
end

return _M
