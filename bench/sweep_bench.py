#!/usr/bin/env python3
"""A sweep of N small experiments against running replicas: wall time, worker-pool use and the
per-experiment overhead of the sweep machinery. Not a test; numbers go to docs/benchmarks.md ("Sweeps").

First a warm-up sweep of WARMUP (default 100, 0 = none) children of the same shape, so the JIT has
compiled the job path and the engine as in a running service; then submits one sweep to the first replica (base: BODY_FILE; axes policy {static, credit} x 5 work
sizes; N / 10 repetitions), reads the counter schedlab.workers.busy.time and the gauge schedlab.workers.size
of every replica (/actuator/metrics) before the POST, waits until every child has finished, then reports:
  submit        POST /sweeps wall time (validate all, store sweep + children + jobs in one transaction), and
                the replicas' CPU from sending the POST to its answer (all threads), per experiment
  wall          POST sent -> last child finished (server finishedAt)
  busy          sum over replicas of the busy-time counter's increase (worker time holding a job, taking
                it to its final write) / (workers x (last finish - first start)): the pool's use while work
                remained, exact (the counter includes jobs still held when read; no gauge sampling)
  pool          the same for db-scheduler's pool threads running any task (the job and its completion; on H2
                also db-scheduler's pick of it, done by lock-and-fetch's polling thread on PostgreSQL):
                Micrometer's executor timer (tag name=schedlab.workers), total time / (workers x span)
  in-run share  sum of children's (finishedAt - startedAt) / (workers x (last finish - first start)): the
                same measure of pool use for any build, from the stored timestamps (RUNNING write to final write)
  run share     sum of children's engine wall time / (workers x (last finish - first start))
  overhead/exp  (workers x (last finish - first start) - sum of engine wall time) / N: worker time per
                child not spent simulating (queue pick-up, start/progress/result writes, idle gaps)
  app CPU       user + system CPU of the replicas' processes (APP_PIDS, /proc) from the POST to the last
                finish, per experiment: what one child costs the service in all (submit, queue, run, writes);
                then the CPU of each thread group after the POST answered (/proc/PID/task): workers (the
                db-scheduler pool: pick-up, start, engine, final write), poller (db-scheduler's fetch,
                heartbeat and housekeeping threads), http (the sampling and progress requests), other (with
                its largest thread names: GC, JIT compilers, connection pool, ...)
  db CPU        on PostgreSQL: user + system CPU of the server processes serving the benchmark's database
                (pg_stat_activity of DB_URL's database, /proc; both replicas' pooled connections) from the
                POST to the last finish, per experiment; the WAL writer and checkpointer are not included
  commits       on PostgreSQL (DB_URL, DB_USER): transactions committed in the benchmark's database
                (pg_stat_database.xact_commit) from the POST to the last finish, per experiment; every
                replica's writes and reads, db-scheduler's included; independent of the machine's load
  aggregate     the first GET /sweeps/{id} after the end (reads N stored results, computes and stores
                the table) and a second one (table read back)
Usage: sweep_bench.py BODY_FILE N URL [URL...]
"""
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import datetime


def call(url, body=None):
    req = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET",
                                 headers={"Content-Type": "application/json"} if body is not None else {})
    with urllib.request.urlopen(req, timeout=120) as resp:
        return resp.status, resp.read()


def get(url):
    return json.loads(call(url)[1])


def gauge(url, name):
    """One gauge's value from /actuator/metrics/NAME: a few hundred bytes of JSON. The whole Prometheus page
    (every meter with its histogram buckets) took half of the HTTP threads' CPU while a sweep ran and kept the
    JIT compiling its exposition code through the measured sweep (JFR, docs/benchmarks.md "Sweeps")."""
    return measurement(url, name, "VALUE")


def measurement(url, name, statistic):
    """One statistic (VALUE, COUNT, TOTAL_TIME, ...) of a meter from /actuator/metrics/NAME."""
    for m in json.loads(call(url + "/actuator/metrics/" + name)[1])["measurements"]:
        if m["statistic"] == statistic:
            return float(m["value"])
    return 0.0


def pool_seconds(urls):
    """Seconds the worker pools' threads spent running tasks (the job, its completion; on H2 the pick too),
    summed over the replicas (Micrometer's executor timer, tag name=schedlab.workers), or None without it."""
    try:
        return sum(measurement(u, "executor?tag=name:schedlab.workers", "TOTAL_TIME") for u in urls)
    except urllib.error.HTTPError:
        return None


def busy_seconds(urls):
    """Worker seconds spent holding a job so far, summed over the replicas (counter schedlab.workers.busy.time),
    or None for a build without the counter."""
    try:
        return sum(measurement(u, "schedlab.workers.busy.time", "COUNT") for u in urls)
    except urllib.error.HTTPError:
        return None


def cpu_seconds(pids):
    """User + system CPU seconds of the given processes so far (fields 14 and 15 of /proc/PID/stat)."""
    total = 0
    for pid in pids:
        with open("/proc/%s/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def thread_cpu(pids):
    """CPU seconds so far per thread group (workers, poller, http, other) of the given processes, and
    per thread name (digits dropped: "GC Thread#0" and "GC Thread#1" count as one) under "other:NAME"."""
    groups = {}
    for pid in pids:
        for tid in os.listdir("/proc/%s/task" % pid):
            try:
                with open("/proc/%s/task/%s/stat" % (pid, tid)) as f:
                    head, rest = f.read().rsplit(")", 1)
            except OSError:
                continue  # the thread ended meanwhile
            comm, fields = head.split("(", 1)[1], rest.split()
            group = ("workers" if comm.startswith("db-scheduler-po") else "poller" if comm.startswith("db-scheduler-")
                     else "http" if comm.startswith("http-nio") else "other")
            seconds = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            groups[group] = groups.get(group, 0) + seconds
            if group == "other":
                key = "other:" + "".join(c for c in comm if not c.isdigit()).strip()
                groups[key] = groups.get(key, 0) + seconds
    return groups


def pg_query(sql):
    """psql's unaligned output of one query on the PostgreSQL database of DB_URL (None on H2)."""
    url = os.environ.get("DB_URL", "")
    if not url.startswith("jdbc:postgresql://"):
        return None
    host_port, db = url[len("jdbc:postgresql://"):].split("?")[0].split("/", 1)
    host, port = (host_port.split(":") + ["5432"])[:2]
    return subprocess.run(["psql", "-h", host, "-p", port, "-U", os.environ.get("DB_USER", "postgres"), "-d", db,
                           "-Atc", sql], capture_output=True, text=True, check=True).stdout


def pg_commits():
    """Transactions committed so far in the PostgreSQL database of DB_URL (None on H2)."""
    out = pg_query("select xact_commit from pg_stat_database where datname = current_database()")
    return None if out is None else int(out.strip())


def pg_backend_cpu():
    """CPU seconds so far per server process connected to DB_URL's database (None on H2); the server must
    run on this machine (the benchmark's local PostgreSQL)."""
    out = pg_query("select pid from pg_stat_activity where datname = current_database()")
    if out is None:
        return None
    cpu = {}
    for pid in out.split():
        try:
            cpu[pid] = cpu_seconds([pid])
        except OSError:
            pass  # ended meanwhile (the psql session itself), or the server is not local
    return cpu


def ts(s):
    return datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()


def definition(base, n):
    """The benchmark sweep: policy {static, credit} x 5 work sizes x n / 10 repetitions."""
    reps = max(1, n // 10)
    return {"name": "bench: %d small experiments" % (10 * reps), "seed": 1, "repetitions": reps, "base": base,
             "axes": [{"name": "policy", "variants": [{"name": "static", "patch": {}},
                                                      {"name": "credit", "patch": {"scheduler": {"policy": "credit"}}}]},
                      {"name": "work", "pointer": "/vms/0/workload/params/workSeconds",
                       "values": [0.1, 0.2, 0.3, 0.4, 0.5]}],
             "metrics": [{"name": "switches", "pointer": "/summary/contextSwitches", "better": "lower"},
                         {"name": "events", "pointer": "/summary/events", "better": "lower"}],
             "baseline": {"policy": "static", "work": "0.5"}}


def await_done(url, sid, total):
    while True:  # the list view: progress without computing the table
        items = [s for s in get(url + "/api/v1/sweeps?size=5")["items"] if s["id"] == sid]
        if items and items[0]["done"] == total:
            return
        time.sleep(0.1)


def main():
    body_file, n, urls = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    base = json.load(open(body_file))
    warmup = int(os.environ.get("WARMUP", "100"))
    if warmup > 0:
        answer = json.loads(call(urls[0] + "/api/v1/sweeps", json.dumps(definition(base, warmup)).encode())[1])
        await_done(urls[0], answer["id"], answer["total"])
        print("warm-up: a sweep of %d children done" % answer["total"])
    sweep = definition(base, n)
    workers = int(sum(gauge(u, "schedlab.workers.size") for u in urls))
    busy0, pool0 = busy_seconds(urls), pool_seconds(urls)
    pids = os.environ.get("APP_PIDS", "").split()
    commits0 = pg_commits()
    db_cpu0 = pg_backend_cpu()
    cpu0 = cpu_seconds(pids) if pids else 0
    t0 = time.time()
    status, answer = call(urls[0] + "/api/v1/sweeps", json.dumps(sweep).encode())
    t_submit = time.time() - t0
    threads0 = thread_cpu(pids) if pids else {}
    submit_cpu = cpu_seconds(pids) - cpu0 if pids else None
    sid = json.loads(answer)["id"]
    total = json.loads(answer)["total"]
    await_done(urls[0], sid, total)
    cpu, t_done = cpu_seconds(pids) - cpu0, time.time()
    commits = None if commits0 is None else pg_commits() - commits0
    db_cpu1 = pg_backend_cpu()
    threads1 = thread_cpu(pids) if pids else {}
    busy1 = busy_seconds(urls)
    busy = None if busy0 is None or busy1 is None else busy1 - busy0
    pool1 = pool_seconds(urls)
    pool = None if pool0 is None or pool1 is None else pool1 - pool0
    t1 = time.time()
    first = get(urls[0] + "/api/v1/sweeps/" + sid)
    t_aggregate = time.time() - t1
    t2 = time.time()
    get(urls[-1] + "/api/v1/sweeps/" + sid)
    t_cached = time.time() - t2

    children, page = [], 0
    while True:
        p = get(urls[0] + "/api/v1/experiments?size=100&page=%d&label=sweep:%s" % (page, sid))
        children += p["items"]
        page += 1
        if page >= p["totalPages"]:
            break
    starts = [ts(c["startedAt"]) for c in children]
    ends = [ts(c["finishedAt"]) for c in children]
    engine = sum(c["summary"]["wallNanos"] for c in children) / 1e9
    span = max(ends) - min(starts)
    print("children %d (%s), replicas %d, workers %d in all" % (len(children), first["status"], len(urls), workers))
    print("submit %.0f ms (%.2f ms per experiment)%s" % (1000 * t_submit, 1000 * t_submit / total, "" if submit_cpu is None
          else ", app CPU %.2f ms per experiment" % (1000 * submit_cpu / total)))
    print("wall POST -> last finish %.2f s; first start -> last finish %.2f s" % (max(ends) - t0, span))
    print("workers busy while work remained: %s" % ("n/a (no busy-time counter)" if busy is None
          else "%.1f %% (busy-time counter)" % (100 * busy / (workers * span))))
    print("worker pool threads running a task (job, completion; H2: pick): %s" % ("n/a (pool not timed)" if pool is None
          else "%.1f %%" % (100 * pool / (workers * span))))
    by_replica = {}
    for c, s0 in zip(children, starts):
        by_replica.setdefault(c.get("replica"), []).append(s0)
    print("per replica: " + ", ".join("%s %d children, first start %.0f ms after the POST" % (
        r, len(v), 1000 * (min(v) - t0)) for r, v in sorted(by_replica.items(), key=lambda kv: str(kv[0]))))
    in_run = sum(e - s for s, e in zip(starts, ends))
    print("children between RUNNING and final write: %.1f %% of worker time" % (100 * in_run / (workers * span)))
    print("engine share of worker time %.1f %%; engine %.2f ms per experiment" % (
        100 * engine / (workers * span), 1000 * engine / total))
    print("overhead per experiment (worker time not simulating) %.2f ms" % (1000 * (workers * span - engine) / total))
    if pids:
        print("app CPU POST -> all done %.2f s (%.2f ms per experiment, %.2f cores)" % (
            cpu, 1000 * cpu / total, cpu / (t_done - t0)))
        print("thread CPU after the POST answered, per experiment: " + ", ".join(
            "%s %.2f ms" % (g, 1000 * (threads1.get(g, 0) - threads0.get(g, 0)) / total)
            for g in ("workers", "poller", "http", "other")))
        others = sorted(((threads1[g] - threads0.get(g, 0), g[len("other:"):]) for g in threads1
                         if g.startswith("other:")), reverse=True)
        print("  other by thread name: " + ", ".join("%s %.2f ms" % (name, 1000 * sec / total)
                                                     for sec, name in others[:6] if sec > 0))
    if db_cpu1 is not None:
        db_cpu = sum(v - db_cpu0.get(pid, 0) for pid, v in db_cpu1.items())
        print("PostgreSQL server CPU POST -> all done %.2f s (%.2f ms per experiment)" % (db_cpu, 1000 * db_cpu / total))
    if commits is not None:
        print("PostgreSQL commits POST -> all done: %d (%.2f per experiment)" % (commits, commits / total))
    print("aggregate: first GET %.0f ms (%.2f ms per experiment), cached GET %.0f ms" % (
        1000 * t_aggregate, 1000 * t_aggregate / total, 1000 * t_cached))


if __name__ == "__main__":
    main()
