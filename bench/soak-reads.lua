-- wrk script for bench/soak.sh: reads only, with an API key (KEY), beside the hostile mix: a list,
-- an experiment, its result and the catalog. Their latency is the soak's read figure; answers are
-- counted as in soak.lua (anything but 2xx is unexpected here).
local key = os.getenv("KEY") or ""
local id = os.getenv("EXPERIMENT_ID") or "00000000-0000-0000-0000-000000000000"
local auth = { ["Authorization"] = "Bearer " .. key }
local threads = {}
local n = 0

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  counts = { ok = 0, c4xx = 0, c5xx = 0, other = 0 }
end

function request()
  n = n + 1
  local r = n % 4
  if r == 0 then return wrk.format("GET", "/api/v1/experiments?size=20", auth) end
  if r == 1 then return wrk.format("GET", "/api/v1/experiments/" .. id, auth) end
  if r == 2 then return wrk.format("GET", "/api/v1/experiments/" .. id .. "/results", auth) end
  return wrk.format("GET", "/api/v1/schedulers", auth)
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
  -- a 4xx is unexpected for these reads: count it with "other"
  io.write(string.format("answers_2xx %d answers_4xx 0 answers_5xx %d other %d socket_errors %d\n", ok, c5,
    other + c4, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
