#!/usr/bin/env bash
# Two builds side by side: bench/sweep-bench.sh alternately on class path A and B, PAIRS times (default
# 3), each run on a fresh database, so both see the same machine load; prints each run's figures.
#   bench/sweep-ab.sh "$(cat a-classpath.txt)" "$(cat b-classpath.txt)"                  # H2 file, 1 replica
#   PG=127.0.0.1:5432 PG_USER=postgres REPLICAS=2 bench/sweep-ab.sh "$A_CP" "$B_CP"   # PostgreSQL, 2 replicas
# PG: a database sweep_ab_<pid>_<run> is created for each run (psql) and dropped after it.
set -euo pipefail
cd "$(dirname "$0")/.."
A_CP=$1
B_CP=$2
PAIRS=${PAIRS:-3}
for pair in $(seq 1 "$PAIRS"); do
  for build in A B; do
    cp_var="${build}_CP"
    echo "### pair $pair, build $build"
    if [ -n "${PG:-}" ]; then
      db="sweep_ab_$$_${pair}_${build,,}"  # lower case: PostgreSQL folds the unquoted name
      psql -h "${PG%%:*}" -p "${PG##*:}" -U "${PG_USER:-postgres}" -d postgres -qc "create database $db"
      DB_URL="jdbc:postgresql://$PG/$db" DB_USER="${PG_USER:-postgres}" APP_CP="${!cp_var}" bench/sweep-bench.sh
      psql -h "${PG%%:*}" -p "${PG##*:}" -U "${PG_USER:-postgres}" -d postgres -qc "drop database $db with (force)"
    else
      APP_CP="${!cp_var}" bench/sweep-bench.sh
    fi
  done
done
