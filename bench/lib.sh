#!/usr/bin/env bash
# Shared by the bench scripts (sourced, not run): find or build the jar, start it in the
# background with its log in $WORK/app.log, stop it on exit, wait for readiness.

# Sets JAR: $JAR if given, else target/schedlab-*.jar, built with `./mvnw package` when missing.
find_jar() {
  JAR=${JAR:-$(ls target/schedlab-*.jar 2>/dev/null | grep -v original | head -n1 || true)}
  if [ -z "$JAR" ]; then
    ./mvnw -B -q -DskipTests package
    JAR=$(ls target/schedlab-*.jar | grep -v original | head -n1)
  fi
}

# start_app JAVA_OPTS ARGS...: starts the jar, sets APP_PID and URL (PORT must be set) and
# kills the app when the script exits; returns once readiness answers, fails if the app dies.
start_app() {
  local java_opts=$1
  shift
  # shellcheck disable=SC2086
  java $java_opts -jar "$JAR" "$@" >"$WORK/app.log" 2>&1 &
  APP_PID=$!
  trap 'kill "$APP_PID" 2>/dev/null; wait "$APP_PID" 2>/dev/null || true' EXIT
  for _ in $(seq 1 240); do
    curl -fs "http://127.0.0.1:$PORT/actuator/health/readiness" >/dev/null && break
    kill -0 "$APP_PID" 2>/dev/null || { echo "app died, see $WORK/app.log" >&2; tail -n 40 "$WORK/app.log" >&2; exit 1; }
    sleep 0.5
  done
  URL="http://127.0.0.1:$PORT"
}
