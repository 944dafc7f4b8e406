-- wrk script of bench/ceilings.sh: runs the request script named by WRK_SCRIPT, if any (edge-soldout.lua), and at the
-- end adds to wrk's own report one line, "seckill-wrk-summary {json}": requests, run time, non-2xx answers, socket
-- errors and the latency percentiles wrk recorded, in milliseconds.
local script = os.getenv("WRK_SCRIPT")
if script and script ~= "" then
  dofile(script)
end

done = function(s, latency)
  local e, ms = s.errors, function(us) return us / 1000 end
  io.write(string.format('seckill-wrk-summary {"requests": %d, "seconds": %f, "non2xx": %d, "socketErrors": %d, '
    .. '"latency": {"p50": %f, "p90": %f, "p99": %f, "max": %f, "mean": %f}}\n', s.requests, s.duration / 1e6,
    e.status, e.connect + e.read + e.write + e.timeout, ms(latency:percentile(50)), ms(latency:percentile(90)),
    ms(latency:percentile(99)), ms(latency.max), ms(latency.mean)))
end
