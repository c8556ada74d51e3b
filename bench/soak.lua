-- wrk script for bench/soak.sh: a hostile mix over the whole API with an API key (KEY):
-- lists, reads of a real and a missing id, catalog, validate, submissions (some with an
-- Idempotency-Key replayed), sweeps (submitted, listed, read), and bad requests (undecodable query,
-- unknown id, no key, bad body).
-- Counts answers by class; any 5xx is a failure of the soak.
dofile("bench/soak-answers.lua")

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
local n = 0

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

function done(summary, latency, requests)
  report_answers(summary, false)
end
