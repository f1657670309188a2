-- wrk script for bench/serve.sh: POSTs one AdmissionReview (the file
-- named by WG_BODY) to /mutate over keep-alive connections.  With
-- WG_RATE (requests a second over all connections, WG_CONNS of them)
-- each connection waits its share between requests (wrk's delay(); wrk
-- times a request from its sending, so the wait is not in the latency).
-- At the end: one line "p50 p90 p99 p999 max (ms) requests errors".
local f = assert(io.open(os.getenv("WG_BODY"), "rb"))
wrk.method = "POST"
wrk.path = "/mutate"
wrk.body = f:read("*a")
wrk.headers["Content-Type"] = "application/json"
f:close()

local rate = tonumber(os.getenv("WG_RATE") or "0")
local conns = tonumber(os.getenv("WG_CONNS") or "1")

function delay()
	if rate > 0 then
		return 1000 * conns / rate
	end
	return 0
end

function done(summary, latency, requests)
	local e = summary.errors
	io.write(string.format("WG %.3f %.3f %.3f %.3f %.3f %d %d %d\n",
		latency:percentile(50) / 1000, latency:percentile(90) / 1000,
		latency:percentile(99) / 1000, latency:percentile(99.9) / 1000,
		latency.max / 1000, summary.requests,
		e.connect + e.read + e.write + e.timeout + e.status,
		summary.duration))
end
