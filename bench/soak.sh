#!/usr/bin/env bash
# Soak of the service as a shared, hostile-facing API: starts the packaged jar with API keys on
# (a fresh submitter key made by `apikey new`), on a fresh H2 file database, holds SSE_STREAMS
# progress streams open (reopened when one ends), and runs for DURATION (default 120s) at once:
# bench/soak.lua with wrk (reads, submissions some replayed with an Idempotency-Key, sweeps,
# validation and bad requests of every kind) and bench/soak-reads.lua with a second wrk (reads
# only: their latency is the read figure). Samples the app's threads and open file descriptors
# every SAMPLE seconds. Prints the answers by class (any 5xx, other status or socket error fails
# the soak), both latency distributions, heap and RSS before and after, and the thread and
# descriptor counts first, last and highest. Not a test: figures go to docs/benchmarks.md.
#   bench/soak.sh                                  # 120 s, 2 threads, 8 connections, 100 streams
#   DURATION=30m SSE_STREAMS=100 bench/soak.sh     # the 30-minute soak of docs/benchmarks.md
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-120s}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-8}
DELAY_MS=${DELAY_MS:-20} # the hostile mix's pause between requests per connection (0 = flat out)
PORT=${PORT:-18090}
SSE_STREAMS=${SSE_STREAMS:-100}
READ_CONNECTIONS=${READ_CONNECTIONS:-2}
SAMPLE=${SAMPLE:-30}

command -v wrk >/dev/null || { echo "wrk not found: apt-get install wrk" >&2; exit 1; }
# shellcheck source=bench/lib.sh
. bench/lib.sh
find_jar

WORK=$(mktemp -d /tmp/schedlab-soak.XXXXXX)
key_out=$(java -jar "$JAR" apikey new --role submitter --name soak 2>/dev/null)
KEY=$(echo "$key_out" | awk '/^key:/ {print $2}')
echo "$key_out" | awk '/^line:/ {print $2, $3, $4}' >"$WORK/api-keys"
export KEY
# the progress streams' own key: its long runs do not count against the soak key's quota
stream_out=$(java -jar "$JAR" apikey new --role submitter --name streams 2>/dev/null)
STREAM_KEY=$(echo "$stream_out" | awk '/^key:/ {print $2}')
echo "$stream_out" | awk '/^line:/ {print $2, $3, $4}' >>"$WORK/api-keys"
# a small per-key quota and queue so the run also meets 429s, the way a hostile client would
start_app "${JAVA_OPTS--XX:ThreadPriorityPolicy=1 -Xmx512m}" --server.port="$PORT" --schedlab.data-dir="$WORK" \
  --spring.datasource.url="jdbc:h2:file:$WORK/schedlab;AUTO_SERVER=FALSE" --schedlab.auth.keys-file="$WORK/api-keys" \
  --schedlab.quotas.max-active-per-key="${QUOTA:-200}" --schedlab.jobs.workers=1 \
  --schedlab.limits.max-event-streams=$((SSE_STREAMS + 20)) --schedlab.http.max-connections-per-client=0
# every client here is 127.0.0.1: the per-client connection limit would count all of them as one

EXPERIMENT_ID=$(curl -fs -X POST -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  --data-binary @examples/small.json "$URL/api/v1/experiments" | sed 's/.*"id":"\([^"]*\)".*/\1/')
export EXPERIMENT_ID
for _ in $(seq 1 120); do # its result is read throughout: wait until it has one
  curl -fs -H "Authorization: Bearer $KEY" "$URL/api/v1/experiments/$EXPERIMENT_ID" | grep -q '"status":"SUCCEEDED"' && break
  sleep 0.5
done
rss() { awk '/VmRSS/ {print $2 / 1024 " MiB"}' "/proc/$APP_PID/status"; }
heap() {
  curl -fs -H "Authorization: Bearer $KEY" "$URL/actuator/prometheus" |
    awk '/^jvm_memory_used_bytes\{/ && /area="heap"/ {s += $NF} END {printf "%.0f MiB\n", s / 1048576}'
}
threads() { awk '/^Threads/ {print $2}' "/proc/$APP_PID/status"; }
fds() { ls "/proc/$APP_PID/fd" | wc -l; }

# progress streams: each on a run of 10 simulated minutes of dense interactive work (minutes of wall time
# each, the one worker takes them in turn, so they stay QUEUED or RUNNING), reopened when one ends
LONG=$(sed 's/"durationSeconds": *[0-9.]*/"durationSeconds": 600.0/' src/test/resources/service/replica-kill.json)
STREAMS_PIDS=()
for i in $(seq 1 "$SSE_STREAMS"); do
  sid=$(curl -fs -X POST -H "Authorization: Bearer $STREAM_KEY" -H 'Content-Type: application/json' \
    --data-binary "$LONG" "$URL/api/v1/experiments" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
  [ -n "$sid" ] || { echo "could not submit the run of stream $i" >&2; exit 1; }
  (
    while :; do
      code=$(curl -s -N -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $STREAM_KEY" \
        "$URL/api/v1/experiments/$sid/events")
      echo "$code" >>"$WORK/streams.codes"
      sleep 1
    done
  ) &
  STREAMS_PIDS+=($!)
done
trap 'kill "${STREAMS_PIDS[@]}" 2>/dev/null; kill "$APP_PID" 2>/dev/null; wait "$APP_PID" 2>/dev/null || true' EXIT
(
  while kill -0 "$APP_PID" 2>/dev/null; do
    echo "$(date +%s) $(threads) $(fds)" >>"$WORK/proc.samples"
    sleep "$SAMPLE"
  done
) &

echo "== jar $JAR, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $SSE_STREAMS progress streams"
echo "== before: rss $(rss), heap $(heap), threads $(threads), fds $(fds)"
echo "== wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency -s bench/soak.lua $URL (${DELAY_MS} ms between requests)"
echo "== and wrk -t1 -c$READ_CONNECTIONS -d$DURATION --latency -s bench/soak-reads.lua $URL (reads only)"
wrk -t1 -c"$READ_CONNECTIONS" -d"$DURATION" --timeout 10s --latency -s bench/soak-reads.lua "$URL" >"$WORK/reads.out" &
READS_PID=$!
DELAY_MS=$DELAY_MS wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --timeout 10s --latency -s bench/soak.lua "$URL" |
  tee "$WORK/wrk.out"
wait "$READS_PID"
echo "== reads only:"
cat "$WORK/reads.out"
echo "== after: rss $(rss), heap $(heap), threads $(threads), fds $(fds), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== progress streams: answers by status (reopened when a run ended)"
[ -s "$WORK/streams.codes" ] && sort "$WORK/streams.codes" | uniq -c || echo "   none ended: every stream stayed open"
awk 'NR == 1 {ft = $2; ff = $3} {if ($2 > mt) mt = $2; if ($3 > mf) mf = $3; lt = $2; lf = $3}
  END {printf "== threads first %d last %d max %d; fds first %d last %d max %d (%d samples)\n", ft, lt, mt, ff, lf, mf, NR}' \
  "$WORK/proc.samples"
curl -fs -H "Authorization: Bearer $KEY" "$URL/actuator/prometheus" |
  grep -E '^schedlab_(queue_depth|experiments_submitted_total|experiments_finished_total)' || true
for out in "$WORK/wrk.out" "$WORK/reads.out"; do
  grep -q '^answers_2xx .* answers_5xx 0 other 0 socket_errors 0$' "$out" ||
    { echo "SOAK FAILED: a 5xx, another status or a socket error in $out, see $WORK/app.log" >&2; exit 1; }
done
if grep -qv '^200$' "$WORK/streams.codes" 2>/dev/null; then
  echo "SOAK FAILED: a progress stream answered other than 200" >&2
  exit 1
fi
echo "== soak passed: no 5xx, no unexpected answer"
