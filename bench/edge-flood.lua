-- wrk script of bench/ceilings.sh's flood step (one thread per wrk process): purchases of the sold-out sale SALE_ID,
-- each signed in as the next of this process's users, from that user's address. USERS names a file of lines
-- "TOKEN ADDRESS" (a bearer token and its X-Forwarded-For); this process takes lines PART, PART + PARTS, ... (PART
-- counted from 0), built into requests once, before the first connection opens. Each answer is counted by status and
-- the body's "code", "(edge)" added when the edge marked it as its own (X-Seckill-Answered-By), as the bench's
-- client keys them; bench/wrk-report.lua adds the counts to its summary line.
local sale = os.getenv("SALE_ID") or "999999999"
local part, parts = tonumber(os.getenv("PART") or "0"), tonumber(os.getenv("PARTS") or "1")

local requests, n = {}, 0
-- Global: wrk-report.lua reads it from each thread (thread:get).
answer_kinds = {}

function init()
  local i = 0
  for line in io.lines(os.getenv("USERS")) do
    if i % parts == part then
      local token, address = line:match("^(%S+) (%S+)$")
      n = n + 1
      requests[n] = wrk.format("POST", "/api/sales/" .. sale .. "/purchase",
        { ["Authorization"] = "Bearer " .. token, ["X-Forwarded-For"] = address }, "")
    end
    i = i + 1
  end
  assert(n > 0, "no users for part " .. part .. " of " .. parts .. " in " .. tostring(os.getenv("USERS")))
end

local next_request = 0

function request()
  next_request = next_request % n + 1
  return requests[next_request]
end

function response(status, headers, body)
  local code = body and body:match('"code"%s*:%s*"([%w_]+)"')
  local edge = headers["X-Seckill-Answered-By"] == "edge"
  local kind = status .. (code and " " .. code or "") .. (edge and " (edge)" or "")
  answer_kinds[kind] = (answer_kinds[kind] or 0) + 1
end
