-- Sold-out flags: one shared-dict entry per sale with a TTL. Per nginx instance (shared by its workers); they
-- survive a reload (HUP) but not a restart. A flag may outlive a restock by at most its TTL when the service's
-- clear call is lost, and a purchase racing a restock may set it again just after the clear: the TTL bounds both.
local ngx = ngx
local shared = ngx.shared
local str_match = string.match
local setmetatable = setmetatable

local _M = {}
local mt = { __index = _M }

-- A sale id has one spelling at the edge and in the service: 1 to 19 ASCII digits without a leading zero
-- (^[1-9][0-9]{0,18}$, the purchase route's regex), so a flag covers every purchase of its sale.
local ID_PATTERN = "^[1-9]%d*$"
local MAX_ID_DIGITS = 19

function _M.new(dict_name, default_ttl)
    local dict = shared[dict_name]
    assert(dict, "no lua_shared_dict " .. tostring(dict_name))
    assert(type(default_ttl) == "number" and default_ttl >= 1, "sold-out TTL must be >= 1 s")
    return setmetatable({ dict = dict, default_ttl = default_ttl }, mt)
end

-- The id in a raw path segment, or nil when the segment is not an id's one spelling.
function _M.canonical_id(raw)
    if not raw or #raw > MAX_ID_DIGITS or not str_match(raw, ID_PATTERN) then
        return nil
    end
    return raw
end

-- The very body the service answers for SOLD_OUT (saleId is a JSON number). The service writes its own in Java
-- (PurchaseService); system-tests' SoldOutBodyIT compares the two field by field against the real stack.
function _M.body(id)
    return '{"code":"SOLD_OUT","message":"sold out","saleId":' .. id .. '}'
end

-- id must be canonical (the purchase location's regex capture is).
function _M.is_set(self, id)
    return self.dict:get(id) ~= nil
end

function _M.set(self, id, ttl)
    ttl = ttl or self.default_ttl
    local ok, err = self.dict:set(id, true, ttl)
    if not ok then
        return nil, err
    end
    return ttl
end

-- Returns true when a flag was there.
function _M.clear(self, id)
    local was = self.dict:get(id) ~= nil
    self.dict:delete(id)
    return was
end

-- Seconds left, or nil when the sale has no flag.
function _M.ttl(self, id)
    if self.dict:get(id) == nil then
        return nil
    end
    return (self.dict:ttl(id))
end

-- Up to max flags as { {id = "7", ttl = 3.2}, ... } (get_keys locks the dict while it walks: keep max small).
function _M.list(self, max)
    local keys = self.dict:get_keys(max)
    local flags = {}
    for i = 1, #keys do
        local ttl = self:ttl(keys[i])
        if ttl then
            flags[#flags + 1] = { id = keys[i], ttl = ttl }
        end
    end
    return flags
end

return _M
