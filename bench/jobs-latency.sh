#!/usr/bin/env bash
# Jobs benchmark: idle submit-to-start latency (target p50 <= 100 ms) and end-to-end time of a tiny
# experiment. Starts the packaged jar on a fresh H2 file database (loopback), then runs
# bench/jobs_latency.py: RUNS sequential submissions of bench/jobs-tiny.json after WARMUP ones.
# Not a test: numbers go to docs/benchmarks.md, section "Jobs".
#   bench/jobs-latency.sh                 # 50 runs after 10 warm-up runs, H2
#   RUNS=200 bench/jobs-latency.sh
#   DB_URL=jdbc:postgresql://127.0.0.1:5432/bench DB_USER=postgres bench/jobs-latency.sh
# Extra Spring arguments in APP_ARGS, e.g. APP_ARGS="--schedlab.jobs.workers=1".
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-50}
WARMUP=${WARMUP:-10}
PORT=${PORT:-18090}
BODY_FILE=${BODY_FILE:-bench/jobs-tiny.json}

# shellcheck source=bench/lib.sh
. bench/lib.sh
find_jar

WORK=$(mktemp -d /tmp/schedlab-jobs-bench.XXXXXX)
DB_URL=${DB_URL:-"jdbc:h2:file:$WORK/schedlab;AUTO_SERVER=FALSE"}
args=(--server.port="$PORT" --schedlab.data-dir="$WORK" --spring.datasource.url="$DB_URL")
[ -n "${DB_USER:-}" ] && args+=(--spring.datasource.username="$DB_USER")
# shellcheck disable=SC2206
[ -n "${APP_ARGS:-}" ] && args+=($APP_ARGS)

start_app "${JAVA_OPTS:-}" "${args[@]}"

echo "== jar $JAR, java $(java -version 2>&1 | head -n1), $(nproc) cores, db ${DB_URL%%;*}"
echo "== $RUNS sequential submissions of $BODY_FILE after $WARMUP warm-up ones"
python3 bench/jobs_latency.py "$URL" "$BODY_FILE" "$RUNS" "$WARMUP"
echo "== metrics after the run"
curl -fs "$URL/actuator/prometheus" | grep -E '^schedlab_(queue_wait_seconds_(count|sum)|run_seconds_(count|sum)|simulation_speed_(count|sum|max)|workers_size)' || true
