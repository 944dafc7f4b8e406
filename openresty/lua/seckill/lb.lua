-- The load balancer's choice of edge (openresty/lb/nginx.conf): round robin over the edges that answer their health
-- probes, so a paused or dead edge is out of rotation within about a second and back once it answers again.
--
-- One worker probes every edge each PROBE_INTERVAL: a GET /edge/health whose status line must come within
-- PROBE_TIMEOUT (any status: a 404 from an edge that keeps /edge/health for loopback callers is an nginx that
-- answers). FALL probes missed in a row take an edge out, RISE answered in a row bring it back; only the verdicts
-- live in a shared dict, which every worker's balancer reads. When no edge is in, every edge is tried, so a request
-- still gets the lb's own 503 rather than nothing.
local balancer = require "ngx.balancer"
local errors = require "seckill.errors"

local M = {}

-- Short enough to take a paused edge out within about a second (FALL * (PROBE_INTERVAL + PROBE_TIMEOUT) at most),
-- long enough that an edge busy on two loaded cores still answers a probe (nginx answers it from its event loop).
local PROBE_INTERVAL = 0.2
local PROBE_TIMEOUT_MS = 400
local FALL = 2
local RISE = 2

local health = ngx.shared.lb_health
local edges = {}
local turn = 0

-- edges: "ip:port[,ip:port...]" (lb.sh resolves names: the balancer takes addresses only).
function M.init(list)
    for host, port in string.gmatch(list, "%[?([%x%.:]-)%]?:(%d+)") do
        edges[#edges + 1] = { host = host, port = tonumber(port), name = host .. ":" .. port, streak = 0 }
    end
    assert(#edges > 0, "the lb has no edges: " .. list)
end

local function answers(edge)
    local sock = ngx.socket.tcp()
    sock:settimeouts(PROBE_TIMEOUT_MS, PROBE_TIMEOUT_MS, PROBE_TIMEOUT_MS)
    local ok = sock:connect(edge.host, edge.port)
    if not ok then
        return false
    end
    ok = sock:send("GET /edge/health HTTP/1.1\r\nHost: lb\r\nConnection: close\r\n\r\n")
    local line = ok and sock:receive("*l")
    sock:close()
    return line ~= nil and line:find("^HTTP/1%.%d %d%d%d") ~= nil
end

local function probe(edge)
    local up = answers(edge)
    local key = edge.name
    -- The prober's own count (only this worker probes): > 0 answered that many times in a row, < 0 missed that many.
    local streak = edge.streak
    if up then streak = streak > 0 and streak + 1 or 1 else streak = streak < 0 and streak - 1 or -1 end
    edge.streak = streak
    local out = health:get("out:" .. key)
    if not out and streak <= -FALL then
        health:set("out:" .. key, true)
        ngx.log(ngx.WARN, "edge ", key, " missed ", FALL, " health probes: out of rotation")
    elseif out and streak >= RISE then
        health:delete("out:" .. key)
        ngx.log(ngx.WARN, "edge ", key, " answers its health probes again: back in rotation")
    end
end

local function round(premature)
    if premature then
        return
    end
    local threads = {}
    for i, edge in ipairs(edges) do
        threads[i] = ngx.thread.spawn(probe, edge)
    end
    for _, t in ipairs(threads) do
        ngx.thread.wait(t)
    end
    local ok, err = ngx.timer.at(PROBE_INTERVAL, round)
    if not ok then
        ngx.log(ngx.ERR, "cannot schedule the edges' health probes: ", err)
    end
end

-- init_worker: the first worker probes (one prober per lb, whatever the worker count).
function M.start()
    if ngx.worker.id() == 0 then
        assert(ngx.timer.at(0, round))
    end
end

-- balancer_by_lua: the next edge in rotation that is in and not yet tried by this request (a retry goes to another).
function M.pick()
    local ctx = ngx.ctx
    local tried = ctx.lb_tried
    if not tried then
        tried = {}
        ctx.lb_tried = tried
        balancer.set_more_tries(1)
    end
    local n = #edges
    local chosen
    for pass = 1, 2 do
        for _ = 1, n do
            turn = turn % n + 1
            local edge = edges[turn]
            if not tried[edge.name] and (pass == 2 or not health:get("out:" .. edge.name)) then
                chosen = edge
                break
            end
        end
        if chosen then break end
    end
    chosen = chosen or edges[turn % n + 1]
    tried[chosen.name] = true
    local ok, err = balancer.set_current_peer(chosen.host, chosen.port)
    if not ok then
        ngx.log(ngx.ERR, "cannot route to edge ", chosen.name, ": ", err)
        return ngx.exit(ngx.HTTP_BAD_GATEWAY)
    end
end

-- Sends the lb's own answer `name` from the one table of answers (seckill.errors), with the lb's request id.
function M.answer(name)
    local status, body, retry_after = errors.answer(name, ngx.var.lb_request_id)
    ngx.status = status
    ngx.header["Cache-Control"] = "no-store"
    ngx.header["Retry-After"] = retry_after
    ngx.header["Content-Length"] = #body
    ngx.print(body)
    return ngx.exit(ngx.HTTP_OK)
end

-- /lb/health: UP for an operator on the lb's own host (loopback, nothing forwarded), no such route for anyone else.
function M.health()
    if ngx.var.lb_operator ~= "1" then
        return M.answer("not_found")
    end
    ngx.print('{"status":"UP"}')
end

return M
