-- wrk script for bench/edge-ceiling.sh: purchases of one sale the edge holds a sold-out flag for.
-- The sale id comes from the SALE_ID environment variable.
wrk.method = "POST"
wrk.path = "/api/sales/" .. (os.getenv("SALE_ID") or "999999999") .. "/purchase"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"quantity":1}'
