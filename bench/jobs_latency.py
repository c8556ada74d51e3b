#!/usr/bin/env python3
"""Idle submit-to-start latency and end-to-end time of a tiny experiment, against a running service.

Submits RUNS experiments one after the other (each waits for the previous one to finish, so the
service is idle at every submit) and reports, per experiment:
  start  = startedAt - createdAt   (server timestamps: row committed -> worker marked it RUNNING)
  e2e    = client POST sent -> client saw SUCCEEDED (polling GET every POLL_MS)
  run    = finishedAt - startedAt  (server timestamps)
Not a test; numbers go to docs/benchmarks.md ("Jobs").
Usage: jobs_latency.py BASE_URL BODY_FILE [RUNS] [WARMUP]
"""
import json
import statistics
import sys
import time
import urllib.request
from datetime import datetime

POLL_MS = 2


def post(url, body):
    req = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as resp:
        return resp.status, json.loads(resp.read())


def get(url):
    with urllib.request.urlopen(url) as resp:
        return json.loads(resp.read())


def ts(value):
    return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


def one(base, body):
    t0 = time.perf_counter()
    status, created = post(base + "/api/v1/experiments", body)
    assert status == 202, status
    url = base + "/api/v1/experiments/" + created["id"]
    while True:
        exp = get(url)
        if exp["status"] in ("SUCCEEDED", "FAILED", "CANCELLED"):
            break
        time.sleep(POLL_MS / 1000)
    e2e = (time.perf_counter() - t0) * 1000
    if exp["status"] != "SUCCEEDED":
        raise SystemExit("experiment ended " + exp["status"] + ": " + str(exp.get("failureReason")))
    start = (ts(exp["startedAt"]) - ts(exp["createdAt"])) * 1000
    run = (ts(exp["finishedAt"]) - ts(exp["startedAt"])) * 1000
    return start, e2e, run


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main():
    base, body_file = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    warmup = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    body = open(body_file, "rb").read()
    for _ in range(warmup):
        one(base, body)
    samples = [one(base, body) for _ in range(runs)]
    for i, name in enumerate(("submit->start (server)", "POST->SUCCEEDED (client)", "run (server)")):
        col = [s[i] for s in samples]
        print(f"{name:28s} n={len(col)} p50={pct(col, 50):7.1f} ms  p90={pct(col, 90):7.1f} ms"
              f"  p99={pct(col, 99):7.1f} ms  max={max(col):7.1f} ms  mean={statistics.mean(col):7.1f} ms")


if __name__ == "__main__":
    main()
