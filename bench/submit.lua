-- wrk script: POST one experiment JSON (BODY_FILE, default examples/small.json) to
-- /api/v1/experiments (or SUBMIT_PATH) and count answers: 202 accepted, 429/503 rejected (queue full), other.
local body_file = os.getenv("BODY_FILE") or "examples/small.json"
local f = assert(io.open(body_file, "rb"), "cannot read " .. body_file)
wrk.method = "POST"
wrk.path = os.getenv("SUBMIT_PATH") or "/api/v1/experiments"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  accepted, rejected, other = 0, 0, 0
end

function response(status, headers, body)
  if status == 202 then
    accepted = accepted + 1
  elseif status == 429 or status == 503 then
    rejected = rejected + 1
  else
    other = other + 1
  end
end

function done(summary, latency, requests)
  local a, r, o = 0, 0, 0
  for _, t in ipairs(threads) do
    a = a + t:get("accepted")
    r = r + t:get("rejected")
    o = o + t:get("other")
  end
  local seconds = summary.duration / 1e6
  io.write(string.format("accepted_202 %d (%.1f/s)\n", a, a / seconds))
  io.write(string.format("rejected_429_503 %d (%.1f/s)\n", r, r / seconds))
  io.write(string.format("other_status %d\n", o))
  io.write(string.format("latency_p50_ms %.2f\nlatency_p99_ms %.2f\n",
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
