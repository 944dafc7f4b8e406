-- standing.lua: where the holder of a waiting-room ticket stands, from the line's progress and the ticket alone
-- (docs/waiting-room.md). The one implementation of these rules: the edge loads this file as a module
-- (require "standing") and answers polls with it without a call; the service runs the same file in Redis as a script
-- (nothing read or written there: the call only computes) for its own answers, so the two can never drift.
--
-- The progress is the service's progress answer (LineService's progress route), decoded by progress() below; every
-- figure in it that does not depend on a ticket (the rate ETAs are divided by, maxRefreshSeconds, the instants drawAt
-- and returnBy as the answers write them, randomBound) is the service's and is used here as it is.
-- A ticket: { prequeue = true|false, value = n, exact = place or nil } (p: a pre-queue place ordered by its random
-- number value; s: the value-th place after the draw; exact: the place when the caller knows it exactly).
--
-- As a Redis script: KEYS[1] a key of the sale's hash tag (routing only: no key is touched), ARGV[1] the progress
-- JSON, ARGV[2] the ticket JSON, ARGV[3] now (epoch ms). Returns the standing as JSON (of() below).
local floor, ceil, max, min = math.floor, math.ceil, math.max, math.min

local M = {
    IN_LINE = "IN_LINE",
    WAITLIST = "WAITLIST",
    ADMITTED = "ADMITTED",
    LAPSED = "ADMISSION_LAPSED",
    SOLD_OUT = "SOLD_OUT",
    ENDED = "SALE_ENDED",
}

-- The bounds of the poll interval a client is told: at least a second; before the draw, down to twice a minute (the
-- upper bound after the draw comes in the progress, maxRefreshSeconds).
local MIN_REFRESH, MAX_PREQUEUE_REFRESH = 1, 30

-- A JSON object decoded with decode (cjson's), a null field absent; nil when body is not a JSON object.
function M.object(decode, body, null)
    local ok, o = pcall(decode, body)
    if not ok or type(o) ~= "table" then
        return nil
    end
    for k, v in pairs(o) do
        if v == null then
            o[k] = nil
        end
    end
    return o
end

-- The progress JSON as object() decodes it, its steps (each [ms, admitted, cut], oldest first) an array.
function M.progress(decode, body, null)
    local p = M.object(decode, body, null)
    if p and type(p.steps) ~= "table" then
        p.steps = {}
    end
    return p
end

local function place_admitted(p, t, admitted, cut)
    if t.prequeue then
        return admitted >= p.prequeue or t.value <= cut
    end
    return admitted >= p.prequeue + t.value
end

-- When the ticket's place was admitted (epoch ms), or nil when the line has not admitted it (yet).
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
    -- Admitted before every step kept: at or before the oldest, which is past the admission time.
    return steps[1] and steps[1][1] or 0
end

-- The ticket's place from 1. A pre-queue place is estimated from its random number (the pre-queue is a uniform
-- shuffle); one not admitted yet is behind everyone admitted, whatever the estimate says.
local function position(p, t)
    if t.exact then
        return t.exact
    end
    if not t.prequeue then
        return p.prequeue + t.value
    end
    local estimate = max(1, min(p.prequeue, ceil(t.value / p.randomBound * p.prequeue)))
    if t.value > p.cut and p.admitted < p.prequeue then
        return max(estimate, p.admitted + 1)
    end
    return estimate
end

-- An estimated count to two significant digits.
local function round(n)
    local scale = 1
    while floor(n / scale) >= 100 do
        scale = scale * 10
    end
    return floor(n / scale + 0.5) * scale
end

local function clamp(seconds, most)
    return max(MIN_REFRESH, min(most, floor(seconds)))
end

-- Where the holder of ticket t stands at now (epoch ms): { code = ..., and the answer's figures }:
-- IN_LINE: position, ahead, eta (nil without a rate), refresh, approximate; before the draw only refresh, draw_at
-- and approximate. WAITLIST: position, ahead, returning, return_by, refresh, approximate. ADMITTED: until_ms.
function M.of(p, t, now)
    if now >= p.endsAt then
        return { code = M.ENDED }
    end
    local at = admitted_at(p, t)
    local stock_gone = p.remaining == 0
    local may_return = p.mayReturn > 0
    if at then
        if stock_gone and not may_return then
            return { code = M.SOLD_OUT }
        end
        local until_ms = at + p.admitMs
        if now < until_ms then
            return { code = M.ADMITTED, until_ms = until_ms }
        end
        return { code = M.LAPSED }
    end
    local approximate = t.prequeue and not t.exact
    if not p.drawn then
        local to_draw = max(0, floor(p.startsAt / 1000) - floor(now / 1000))
        return { code = M.IN_LINE, refresh = clamp(to_draw / 10, MAX_PREQUEUE_REFRESH), draw_at = p.drawAt,
                 approximate = t.prequeue }
    end
    local pos = position(p, t)
    local ahead = max(0, pos - p.admitted - 1)
    if approximate then
        ahead = round(ahead)
    end
    if stock_gone then
        if not may_return then
            return { code = M.SOLD_OUT }
        end
        return { code = M.WAITLIST, position = pos, ahead = ahead, returning = p.mayReturn,
                 return_by = p.returnBy, refresh = p.maxRefreshSeconds, approximate = approximate }
    end
    local rate = p.rate or 0
    local eta = rate > 0 and ceil(ahead / rate) or nil
    return { code = M.IN_LINE, position = pos, ahead = ahead, eta = eta,
             refresh = clamp(eta and eta / 10 or 2, p.maxRefreshSeconds), approximate = approximate }
end

-- Run by Redis (KEYS and ARGV are its globals; the edge, which has neither, takes the module).
if KEYS ~= nil and ARGV ~= nil then
    local p = M.progress(cjson.decode, ARGV[1], cjson.null)
    local t = M.object(cjson.decode, ARGV[2], cjson.null)
    if not p or not t then
        return redis.error_reply("ERR standing.lua: the progress and the ticket must be JSON objects")
    end
    return cjson.encode(M.of(p, t, tonumber(ARGV[3])))
end

return M
