-- JSON at the edge: every body the edge writes or reads goes through cjson, here (never by hand: a comma in a string
-- or a renamed field would break a hand-made one silently).
--
-- Two things Debian's lua-cjson 2.1.0 cannot write are passed through markers and put in after encoding:
--   * ids (json.id): a sale id is a JSON number of up to 19 digits (docs/contract.md), but a Lua number holds 2^53
--     exactly and cjson prints 14 significant digits; the edge keeps ids as the digit strings of the path and writes
--     those digits. (Order ids are JSON strings by contract, so they need nothing.)
-- And one thing no cjson writes: fields in a set order. The contract lists each answer's fields in order (the
-- service writes them so), so json.object writes an object field by field in the order given, each key and value
-- encoded by cjson.
-- A marker is a string starting with \1, which cjson escapes as \u0001; nothing else the edge writes holds \1 (its
-- strings are fixed messages, codes, and request ids and tickets of checked characters).
local cjson = require("cjson.safe").new()

local str_find = string.find
local str_gsub = string.gsub
local str_match = string.match
local tostring = tostring
local error = error
local concat = table.concat
local setmetatable = setmetatable
local getmetatable = getmetatable

local _M = {
    null = cjson.null,
}

local MARK = "\1"

-- The JSON number of an id given as its digits (1 to 19, as the edge's routes accept them).
function _M.id(digits)
    digits = tostring(digits)
    if not str_match(digits, "^%d+$") or #digits > 19 then
        error("not an id: " .. digits)
    end
    return MARK .. digits
end

-- The JSON text of value (a table), or nil and an error.
function _M.encode(value)
    local text, err = cjson.encode(value)
    if not text then
        return nil, err
    end
    if str_find(text, "\\u0001", 1, true) then
        text = str_gsub(text, '"\\u0001(%d+)"', "%1")
    end
    return text
end

local RAW = {}

-- A value already encoded (by json.object or json.encode), to put in an object as it is.
function _M.raw(text)
    return setmetatable({ text }, RAW)
end

local function value(v)
    if getmetatable(v) == RAW then
        return v[1]
    end
    return _M.encode(v)
end

-- The JSON text of an object of t's fields in the order of keys (a field whose value is nil is left out).
function _M.object(keys, t)
    local parts = {}
    for i = 1, #keys do
        local k = keys[i]
        local v = t[k]
        if v ~= nil then
            parts[#parts + 1] = cjson.encode(k) .. ":" .. value(v)
        end
    end
    return "{" .. concat(parts, ",") .. "}"
end

-- The JSON text of an array of values already encoded (json.object's).
function _M.array(texts)
    return "[" .. concat(texts, ",") .. "]"
end

-- The value of a JSON text, or nil and an error.
_M.decode = cjson.decode

return _M
