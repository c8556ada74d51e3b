-- wrk script for bench/soak.sh: reads only, with an API key (KEY), beside the hostile mix: a list,
-- an experiment, its result and the catalog. Their latency is the soak's read figure; answers are
-- counted as in soak.lua (anything but 2xx is unexpected here).
dofile("bench/soak-answers.lua")

local key = os.getenv("KEY") or ""
local id = os.getenv("EXPERIMENT_ID") or "00000000-0000-0000-0000-000000000000"
local auth = { ["Authorization"] = "Bearer " .. key }
local n = 0

function request()
  n = n + 1
  local r = n % 4
  if r == 0 then return wrk.format("GET", "/api/v1/experiments?size=20", auth) end
  if r == 1 then return wrk.format("GET", "/api/v1/experiments/" .. id, auth) end
  if r == 2 then return wrk.format("GET", "/api/v1/experiments/" .. id .. "/results", auth) end
  return wrk.format("GET", "/api/v1/schedulers", auth)
end

function done(summary, latency, requests)
  report_answers(summary, true)
end
