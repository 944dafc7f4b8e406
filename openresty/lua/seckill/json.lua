-- JSON at the edge: every body the edge writes or reads goes through cjson, here (never by hand: a comma in a string
-- or a renamed field would break a hand-made one silently).
--
-- Two things Debian's lua-cjson 2.1.0 cannot write are passed through markers and put in after encoding:
--   * ids (json.id): a sale id is a JSON number of up to 19 digits (docs/contract.md), but a Lua number holds 2^53
--     exactly and cjson prints 14 significant digits; the edge keeps ids as the digit strings of the path and writes
--     those digits. (Order ids are JSON strings by contract, so they need nothing.)
--   * the empty array (json.EMPTY_ARRAY): cjson writes an empty table as {} (2.1.0 has no empty_array).
-- A marker is a string starting with \1, which cjson escapes as \u0001; nothing else the edge writes holds \1 (its
-- strings are fixed messages, codes, and request ids and tickets of checked characters).
local cjson = require("cjson.safe").new()

local str_find = string.find
local str_gsub = string.gsub
local str_match = string.match
local tostring = tostring
local error = error

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

_M.EMPTY_ARRAY = MARK .. "[]"

-- The JSON text of value (a table), or nil and an error.
function _M.encode(value)
    local text, err = cjson.encode(value)
    if not text then
        return nil, err
    end
    if str_find(text, "\\u0001", 1, true) then
        text = str_gsub(text, '"\\u0001(%d+)"', "%1")
        text = str_gsub(text, '"\\u0001%[%]"', "[]")
    end
    return text
end

-- The value of a JSON text, or nil and an error.
_M.decode = cjson.decode

return _M
