#!/usr/bin/env bash
# Bounded soak of the service as a shared, hostile-facing API: starts the packaged jar with API
# keys on (a fresh submitter key made by `apikey new`), on a fresh H2 file database, and runs
# bench/soak.lua with wrk for DURATION (default 120s): reads, submissions (some replayed with an
# Idempotency-Key), validation and bad requests of every kind. Prints the answers by class (a
# 5xx fails the soak), wrk's latency distribution, and the app's heap use and RSS before and
# after. Not a test: figures go to docs/benchmarks.md.
#   bench/soak.sh                                  # 120 s, 2 threads, 16 connections
#   DURATION=600s CONNECTIONS=32 bench/soak.sh
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-120s}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-16}
PORT=${PORT:-18090}

command -v wrk >/dev/null || { echo "wrk not found: apt-get install wrk" >&2; exit 1; }
# shellcheck source=bench/lib.sh
. bench/lib.sh
find_jar

WORK=$(mktemp -d /tmp/schedlab-soak.XXXXXX)
key_out=$(java -jar "$JAR" apikey new --role submitter --name soak 2>/dev/null)
KEY=$(echo "$key_out" | awk '/^key:/ {print $2}')
echo "$key_out" | awk '/^line:/ {print $2, $3, $4}' >"$WORK/api-keys"
export KEY
# a small per-key quota and queue so the run also meets 429s, the way a hostile client would
start_app "${JAVA_OPTS--XX:ThreadPriorityPolicy=1 -Xmx512m}" --server.port="$PORT" --schedlab.data-dir="$WORK" \
  --spring.datasource.url="jdbc:h2:file:$WORK/schedlab;AUTO_SERVER=FALSE" --schedlab.auth.keys-file="$WORK/api-keys" \
  --schedlab.quotas.max-active-per-key="${QUOTA:-200}" --schedlab.jobs.workers=1

EXPERIMENT_ID=$(curl -fs -X POST -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  --data-binary @examples/small.json "$URL/api/v1/experiments" | sed 's/.*"id":"\([^"]*\)".*/\1/')
export EXPERIMENT_ID
rss() { awk '/VmRSS/ {print $2 / 1024 " MiB"}' "/proc/$APP_PID/status"; }
heap() {
  curl -fs -H "Authorization: Bearer $KEY" "$URL/actuator/prometheus" |
    awk '/^jvm_memory_used_bytes\{/ && /area="heap"/ {s += $NF} END {printf "%.0f MiB\n", s / 1048576}'
}
echo "== jar $JAR, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== before: rss $(rss), heap $(heap)"
echo "== wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency -s bench/soak.lua $URL"
wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --timeout 10s --latency -s bench/soak.lua "$URL" | tee "$WORK/wrk.out"
echo "== after: rss $(rss), heap $(heap), load $(cut -d' ' -f1-3 /proc/loadavg)"
curl -fs -H "Authorization: Bearer $KEY" "$URL/actuator/prometheus" |
  grep -E '^schedlab_(queue_depth|experiments_submitted_total|experiments_finished_total)' || true
grep -q '^answers_2xx .* answers_5xx 0 ' "$WORK/wrk.out" || { echo "SOAK FAILED: server errors, see $WORK/app.log" >&2; exit 1; }
echo "== soak passed: no 5xx"
