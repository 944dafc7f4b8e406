-- wrk script of bench/ceilings.sh: runs the request script named by WRK_SCRIPT, if any (edge-soldout.lua,
-- edge-flood.lua), and at the end adds to wrk's own report one line, "seckill-wrk-summary {json}": requests, run
-- time, non-2xx answers, socket errors (all, and by kind: connect, read, write, timeout), the latency percentiles
-- wrk recorded, in milliseconds, and the answers by kind when the request script counts them in a global table
-- answer_kinds of each thread. HOLD (seconds): how long the process stays after its report.
local script = os.getenv("WRK_SCRIPT")
if script and script ~= "" then
  dofile(script)
end

local threads = {}

setup = function(thread)
  table.insert(threads, thread)
end

done = function(s, latency)
  local e, ms = s.errors, function(us) return us / 1000 end
  local kinds, list = {}, {}
  for _, thread in ipairs(threads) do
    for kind, count in pairs(thread:get("answer_kinds") or {}) do
      kinds[kind] = (kinds[kind] or 0) + count
    end
  end
  for kind, count in pairs(kinds) do
    table.insert(list, string.format('"%s": %d', kind, count))
  end
  io.write(string.format('seckill-wrk-summary {"requests": %d, "seconds": %f, "non2xx": %d, "socketErrors": %d, '
    .. '"errors": {"connect": %d, "read": %d, "write": %d, "timeout": %d}, "byKind": {%s}, '
    .. '"latency": {"p50": %f, "p90": %f, "p99": %f, "max": %f, "mean": %f}}\n', s.requests, s.duration / 1e6,
    e.status, e.connect + e.read + e.write + e.timeout, e.connect, e.read, e.write, e.timeout,
    table.concat(list, ", "), ms(latency:percentile(50)), ms(latency:percentile(90)), ms(latency:percentile(99)),
    ms(latency.max), ms(latency.mean)))
  io.flush()
  local hold = tonumber(os.getenv("HOLD") or "")
  if hold then
    os.execute("sleep " .. hold)
  end
end
