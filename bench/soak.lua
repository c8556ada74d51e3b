-- wrk script for bench/soak.sh: a hostile mix over the whole API with an API key (KEY):
-- lists, reads of a real and a missing id, catalog, validate, submissions (some with an
-- Idempotency-Key replayed), sweeps (submitted, listed, read), and bad requests (undecodable query,
-- unknown id, no key, bad body).
-- Counts answers by class; any 5xx is a failure of the soak.
local key = os.getenv("KEY") or ""
local id = os.getenv("EXPERIMENT_ID") or "00000000-0000-0000-0000-000000000000"
local body_file = os.getenv("BODY_FILE") or "examples/small.json"
local f = assert(io.open(body_file, "rb"), "cannot read " .. body_file)
local body = f:read("*a")
f:close()

local sweep_file = assert(io.open(os.getenv("SWEEP_FILE") or "examples/sweeps/credit-vs-credit2.json", "rb"))
local sweep = sweep_file:read("*a")
sweep_file:close()

local pause = tonumber(os.getenv("DELAY_MS") or "0")

local auth = { ["Authorization"] = "Bearer " .. key }
local json = { ["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json" }
local threads = {}
local n = 0

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  counts = { ok = 0, c4xx = 0, c5xx = 0, other = 0 }
end

local function idem(h, k)
  local c = {}
  for name, v in pairs(h) do c[name] = v end
  c["Idempotency-Key"] = k
  return c
end

function request()
  n = n + 1
  local r = n % 24
  if r < 5 then return wrk.format("GET", "/api/v1/experiments?size=20", auth) end
  if r < 8 then return wrk.format("GET", "/api/v1/experiments/" .. id, auth) end
  if r == 8 then return wrk.format("GET", "/api/v1/schedulers", auth) end
  if r == 9 then return wrk.format("POST", "/api/v1/experiments:validate", json, body) end
  if r == 10 then return wrk.format("POST", "/api/v1/experiments", idem(json, "soak-" .. (n % 50)), body) end
  if r == 11 then return wrk.format("GET", "/api/v1/experiments?a=%ZZ", auth) end
  if r == 12 then return wrk.format("GET", "/api/v1/experiments/" .. id .. "x", auth) end
  if r == 13 then return wrk.format("GET", "/api/v1/experiments", {}) end
  if r == 14 then return wrk.format("POST", "/api/v1/experiments", json, "{\"vms\":[{}]}") end
  if r == 15 then return wrk.format("GET", "/api/v1/experiments/" .. id .. "/results", auth) end
  if r == 16 then return wrk.format("GET", "/api/v1/experiments/%2F", auth) end
  if r == 17 then return wrk.format("TRACE", "/api/v1/experiments", auth) end
  if r == 18 then return wrk.format("GET", "/actuator/health/readiness") end
  if r == 19 then return wrk.format("GET", "/api/v1/sweeps?size=20", auth) end
  if r == 20 and n % 480 == 20 then return wrk.format("POST", "/api/v1/sweeps", json, sweep) end
  if r == 20 then return wrk.format("GET", "/api/v1/scenarios/E2", auth) end
  if r == 21 then return wrk.format("GET", "/api/v1/experiments/" .. id .. "/report", auth) end
  return wrk.format("GET", "/api/v1/experiments/00000000-0000-0000-0000-000000000001/input", auth)
end

-- wrk waits this many milliseconds before each request of a connection: a paced mix, not a flood
function delay()
  return pause
end

function response(status, headers, body)
  if status >= 500 then
    counts.c5xx = counts.c5xx + 1
  elseif status >= 400 then
    counts.c4xx = counts.c4xx + 1
  elseif status >= 200 and status < 300 then
    counts.ok = counts.ok + 1
  else
    counts.other = counts.other + 1
  end
end

function done(summary, latency, requests)
  local ok, c4, c5, other = 0, 0, 0, 0
  for _, t in ipairs(threads) do
    local c = t:get("counts")
    ok, c4, c5, other = ok + c.ok, c4 + c.c4xx, c5 + c.c5xx, other + c.other
  end
  io.write(string.format("answers_2xx %d answers_4xx %d answers_5xx %d other %d socket_errors %d\n", ok, c4, c5, other,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
