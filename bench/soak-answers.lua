-- Shared by bench/soak.lua and bench/soak-reads.lua (loaded with dofile from the project root):
-- counts each thread's answers by class and prints one line of totals when wrk is done.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  counts = { ok = 0, c4xx = 0, c5xx = 0, other = 0 }
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

-- Prints the totals; with four_xx_unexpected a 4xx is counted with "other" (which fails the soak).
function report_answers(summary, four_xx_unexpected)
  local ok, c4, c5, other = 0, 0, 0, 0
  for _, t in ipairs(threads) do
    local c = t:get("counts")
    ok, c4, c5, other = ok + c.ok, c4 + c.c4xx, c5 + c.c5xx, other + c.other
  end
  if four_xx_unexpected then
    other, c4 = other + c4, 0
  end
  io.write(string.format("answers_2xx %d answers_4xx %d answers_5xx %d other %d socket_errors %d\n", ok, c4, c5, other,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
