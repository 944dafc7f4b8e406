-- The headers of a request refused by nginx's limit_req (per client IP, a leaky bucket of RATE with BURST).
-- limit_req does not expose its state, so the headers are computed from the configured rate and burst:
--   Retry-After            the time for one more request to be allowed: ceil(1 / rate), at least 1 s
--   X-RateLimit-Limit      requests allowed at once from a rested bucket: burst + 1
--   X-RateLimit-Remaining  0 (this request was refused)
--   X-RateLimit-Reset      the time for the bucket to be fully rested again: ceil(burst / rate), >= Retry-After
local reply = require "seckill.reply"

local ngx = ngx
local header = ngx.header
local str_match = string.match
local math_ceil = math.ceil
local math_max = math.max
local setmetatable = setmetatable

local _M = {}
local mt = { __index = _M }

local SECONDS_PER = { s = 1, m = 60 }

-- rate is nginx's own notation ("20r/s", "30r/m"); burst a whole number of requests.
function _M.new(rate, burst)
    local n, unit = str_match(rate or "", "^(%d+)r/([sm])$")
    assert(n and tonumber(n) > 0, "rate must look like 20r/s or 30r/m, got " .. tostring(rate))
    assert(type(burst) == "number" and burst >= 1, "burst must be >= 1")
    local per_second = tonumber(n) / SECONDS_PER[unit]
    local retry_after = math_max(1, math_ceil(1 / per_second))
    local reset = math_max(retry_after, math_ceil(burst / per_second))
    return setmetatable({
        per_second = per_second,
        retry_after = tostring(retry_after),
        limit = tostring(burst + 1),
        reset = tostring(reset),
        body_fields = { retryAfter = retry_after },
    }, mt)
end

-- Sets the 429's headers on the answer being built; returns the body's extra fields (retryAfter).
function _M.refusal(self)
    header[reply.RETRY_AFTER] = self.retry_after
    header[reply.LIMIT] = self.limit
    header[reply.REMAINING] = "0"
    header[reply.RESET] = self.reset
    return self.body_fields
end

return _M
