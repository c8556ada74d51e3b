#!/usr/bin/env bash
# HTTP submission benchmark: starts the packaged jar on a fresh H2 file database (loopback),
# warms it up, then POSTs examples/small.json with wrk for DURATION and prints wrk's latency
# distribution plus accepted (202) vs rejected (429/503) counts. Not a test: numbers go to
# docs/benchmarks.md.
#   bench/submit-wrk.sh                      # defaults: 30s, 2 threads, 32 connections
#   MAX_QUEUED=1000000 bench/submit-wrk.sh   # raise schedlab.jobs.max-queued (default 1000)
#   REPEAT=3 bench/submit-wrk.sh             # three runs on one process, then their medians
#   DB_URL=jdbc:postgresql://127.0.0.1:5432/bench DB_USER=postgres bench/submit-wrk.sh   # PostgreSQL (an empty database)
# JAR=path picks another build (A/B runs). Extra Spring arguments can be given in APP_ARGS, e.g. APP_ARGS="--schedlab.jobs.workers=1".
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-30s}
WARMUP=${WARMUP:-10s}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
PORT=${PORT:-18080}
BODY_FILE=${BODY_FILE:-examples/small.json}
export BODY_FILE

command -v wrk >/dev/null || { echo "wrk not found: apt-get install wrk" >&2; exit 1; }
# shellcheck source=bench/lib.sh
. bench/lib.sh
find_jar

WORK=$(mktemp -d /tmp/schedlab-bench.XXXXXX)
DB_URL=${DB_URL:-"jdbc:h2:file:$WORK/schedlab;AUTO_SERVER=FALSE"}
args=(--server.port="$PORT" --schedlab.data-dir="$WORK" --spring.datasource.url="$DB_URL")
[ -n "${DB_USER:-}" ] && args+=(--spring.datasource.username="$DB_USER")
[ -n "${MAX_QUEUED:-}" ] && args+=(--schedlab.jobs.max-queued="$MAX_QUEUED")
# shellcheck disable=SC2206
[ -n "${APP_ARGS:-}" ] && args+=($APP_ARGS)

# JAVA_OPTS defaults to the flag the Dockerfile and `./mvnw spring-boot:run` use (workers below the API)
start_app "${JAVA_OPTS--XX:ThreadPriorityPolicy=1}" "${args[@]}"

echo "== jar $JAR, java $(java -version 2>&1 | head -n1), $(nproc) cores, max-queued=${MAX_QUEUED:-default}, db ${DB_URL%%;*}"
# Warm-up on the validate endpoint (WARMUP_PATH): same JSON parsing and validation path, nothing
# queued, so the measured run starts with an empty queue. WARMUP_PATH=/api/v1/experiments warms the
# insert and enqueue code too (the first measured run then starts with a backlog).
WARMUP_PATH=${WARMUP_PATH:-/api/v1/experiments:validate}
echo "== warm-up $WARMUP on $WARMUP_PATH"
SUBMIT_PATH=$WARMUP_PATH wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" -s bench/submit.lua "$URL" >/dev/null
# CPU seconds (user+system) the app process used, from /proc: on a shared machine this is a
# steadier figure than requests/s, which depends on how much CPU the other processes leave us.
app_cpu() { awk -v t="$(getconf CLK_TCK)" '{print ($14 + $15) / t}' "/proc/$APP_PID/stat"; }
echo "== load before: $(cut -d' ' -f1-3 /proc/loadavg)"
# REPEAT runs against the same process (the queue keeps what earlier runs accepted), each
# summarised on one "run" line; the "median" line is what docs/benchmarks.md quotes.
: >"$WORK/runs.txt"
for run in $(seq 1 "${REPEAT:-1}"); do
  echo "== run $run: wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency -s bench/submit.lua $URL"
  cpu_before=$(app_cpu)
  /usr/bin/time -f "wrk_cpu_seconds %U user %S system" \
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s bench/submit.lua "$URL" | tee "$WORK/wrk.out"
  cpu_after=$(app_cpu)
  awk -v b="$cpu_before" -v a="$cpu_after" -v run="$run" '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /^accepted_202/ { k = $2; rate = substr($3, 2) + 0 }
    /requests in/ { n = $1 }
    $1 == "50%" { p50 = ms($2) } $1 == "99%" { p99 = ms($2) }
    END {
      printf "app_cpu_seconds %.1f (incl. workers simulating)\napp_cpu_ms_per_request %.2f\n", a - b, (n > 0 ? (a - b) * 1000 / n : 0)
      printf "app_cpu_ms_per_accepted %.2f\n", (k > 0 ? (a - b) * 1000 / k : 0)
      printf "run %d accepted_per_s %.0f p50_ms %.1f p99_ms %.1f cpu_ms_per_accepted %.2f\n", run, rate, p50, p99,
        (k > 0 ? (a - b) * 1000 / k : 0) > "/dev/stderr" }' "$WORK/wrk.out" 2>>"$WORK/runs.txt"
  echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
done
cat "$WORK/runs.txt"
# median of each column over the runs (the middle value; the lower middle for an even count)
for col in 4 6 8 10; do sort -n -k"$col,$col" "$WORK/runs.txt" | awk -v c="$col" '{ v[NR] = $c } END { printf "%s ", v[int((NR + 1) / 2)] }'; done |
  awk '{ printf "median accepted_per_s %s p50_ms %s p99_ms %s cpu_ms_per_accepted %s\n", $1, $2, $3, $4 }'
echo "== after the run"
curl -fs "$URL/actuator/prometheus" | grep -E '^schedlab_(queue_depth|experiments_submitted_total|experiments_finished_total)' || true
