#!/usr/bin/env bash
# Sweeps benchmark: one sweep of N (default 500) small experiments (bench/jobs-tiny.json varied
# over policy x work size), on REPLICAS (default 1) copies of the packaged jar sharing one
# database: wall time, worker-pool use while work remains, per-experiment overhead of the sweep
# machinery and the aggregation time (bench/sweep_bench.py). Not a test: numbers go to
# docs/benchmarks.md, section "Sweeps".
#   bench/sweep-bench.sh                                   # H2 file, one replica
#   DB_URL=jdbc:postgresql://127.0.0.1:5432/<fresh db> DB_USER=postgres REPLICAS=2 bench/sweep-bench.sh
# WARMUP (default 100, 0 = none): children of the warm-up sweep run before the measured one.
# The work directory (database, logs) is removed on exit unless KEEP_WORK is set.
# Extra Spring arguments in APP_ARGS, e.g. APP_ARGS="--schedlab.jobs.workers=1". APP_CP=<class path>
# runs the classes on that path (io.schedlab.SchedLabApplication) instead of the packaged jar.
set -euo pipefail
cd "$(dirname "$0")/.."

N=${N:-500}
WARMUP=${WARMUP:-100}
export WARMUP
REPLICAS=${REPLICAS:-1}
PORT0=${PORT:-18190}
BODY_FILE=${BODY_FILE:-bench/jobs-tiny.json}

# shellcheck source=bench/lib.sh
. bench/lib.sh
if [ -n "${APP_CP:-}" ]; then
  LAUNCH=(-cp "$APP_CP" io.schedlab.SchedLabApplication)
  WHAT="classes on APP_CP"
else
  find_jar
  LAUNCH=(-jar "$JAR")
  WHAT="jar $JAR"
fi

WORK=$(mktemp -d /tmp/schedlab-sweep-bench.XXXXXX)
DB_URL=${DB_URL:-"jdbc:h2:file:$WORK/schedlab;AUTO_SERVER=FALSE"}
if [ "$REPLICAS" -gt 1 ] && [[ "$DB_URL" == jdbc:h2:* ]]; then
  echo "several replicas need a shared PostgreSQL database (DB_URL=jdbc:postgresql://...)" >&2
  exit 2
fi
urls=()
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null || true; done; [ -n "${KEEP_WORK:-}" ] || rm -rf "$WORK"' EXIT
for i in $(seq 0 $((REPLICAS - 1))); do
  port=$((PORT0 + i))
  # max-queued counts the warm-up too: the queue-full check's estimate of the depth is recounted only after
  # a read (QueueDepthEstimate), so the measured sweep's POST still sees the warm-up's jobs as queued
  args=(--server.port="$port" --schedlab.data-dir="$WORK/r$i" --spring.datasource.url="$DB_URL"
        --schedlab.sweeps.max-experiments=$((N > WARMUP ? N : WARMUP)) --schedlab.jobs.max-queued=$((N + WARMUP + 100)))
  [ -n "${DB_USER:-}" ] && args+=(--spring.datasource.username="$DB_USER")
  # shellcheck disable=SC2206
  [ -n "${APP_ARGS:-}" ] && args+=($APP_ARGS)
  # shellcheck disable=SC2086
  java ${JAVA_OPTS:-} "${LAUNCH[@]}" "${args[@]}" >"$WORK/app$i.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 240); do
    curl -fs "http://127.0.0.1:$port/actuator/health/readiness" >/dev/null && break
    kill -0 "${pids[$i]}" 2>/dev/null || { echo "replica $i died, see $WORK/app$i.log" >&2; exit 1; }
    sleep 0.5
  done
  urls+=("http://127.0.0.1:$port")
done

echo "== $WHAT, java $(java -version 2>&1 | head -n1), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), db ${DB_URL%%;*}, $REPLICAS replica(s)"
APP_PIDS="${pids[*]}" DB_URL="$DB_URL" DB_USER="${DB_USER:-}" python3 bench/sweep_bench.py "$BODY_FILE" "$N" "${urls[@]}"
