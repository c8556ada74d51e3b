"""The README's walk-through on the Python client that openapi-generator makes from openapi.yaml
(-g python, default options: package openapi_client), with nothing but what that client offers.

    python3 walk.py BASE_URL EXPERIMENT_JSON SWEEP_JSON

Submits the experiment, follows its progress stream (server-sent events) until the final status,
reads its result as JSON and as CSV, runs the sweep and reads its table (JSON and CSV), and sends a
bad body to read the problem+json answer as a typed error. Prints one line of JSON saying what each
step read; exits non-zero when a step fails.
"""
import csv
import io
import json
import sys
import time

import openapi_client
from openapi_client.api.experiments_api import ExperimentsApi
from openapi_client.api.results_api import ResultsApi
from openapi_client.api.sweeps_api import SweepsApi
from openapi_client.exceptions import ApiException
from openapi_client.models.experiment_spec import ExperimentSpec
from openapi_client.models.experiment_status_event import ExperimentStatusEvent
from openapi_client.models.sweep_definition import SweepDefinition

FINAL = {"SUCCEEDED", "FAILED", "CANCELLED"}
SWEEP_WITHIN_SECONDS = 120


def status_events(response):
    """Server-sent events of a streamed response (text/event-stream: field lines, a blank line ends an event)."""
    fields = {}
    for raw in response:
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if "data" in fields:
                yield ExperimentStatusEvent.from_dict(
                    {"event": fields.get("event"), "id": fields.get("id"), "data": json.loads(fields["data"])})
            fields = {}
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if not name:
            continue  # a comment line
        if name == "data" and "data" in fields:
            fields["data"] += "\n" + value  # data lines of one event join with LF
        else:
            fields[name] = value


def rows(body):
    """A tidy CSV answer (the client hands over its bytes as they are) as a list of dicts; checks its LF line ends."""
    text = body.decode("utf-8")
    if "\r" in text:
        raise SystemExit("CSV has CR line ends")
    return list(csv.DictReader(io.StringIO(text)))


def main(base_url, experiment_file, sweep_file):
    client = openapi_client.ApiClient(openapi_client.Configuration(host=base_url))
    experiments, results, sweeps = ExperimentsApi(client), ResultsApi(client), SweepsApi(client)
    out = {}

    with open(experiment_file, encoding="utf-8") as f:
        spec = ExperimentSpec.from_json(f.read())
    queued = experiments.submit_experiment(spec)
    out["submitted"] = queued.status

    # progress until the final status, over the server-sent events stream
    statuses = []
    stream = experiments.stream_experiment_events_without_preload_content(queued.id)
    try:
        for event in status_events(stream):
            if event.data.id != queued.id:
                raise SystemExit("event of another experiment: " + str(event.data.id))
            if not statuses or statuses[-1] != event.data.status:
                statuses.append(event.data.status)
            out["lastEventId"] = event.id
            if event.data.status in FINAL:
                break
    finally:
        stream.release_conn()
    out["statuses"] = statuses

    document = results.get_experiment_results(queued.id)
    out["partial"] = document.partial
    out["resultVms"] = [vm.name for vm in document.vms]
    out["completionNanos"] = {vm.name: vm.completion_nanos for vm in document.vms}
    out["resultVcpus"] = sum(len(vm.vcpus) for vm in document.vms)
    headline = document.summary.vm_headline["VM1"]
    out["vm1Headline"] = {"value": headline.value, "unit": headline.unit}

    vms = rows(results.get_experiment_results_csv(queued.id))
    out["csvVms"] = [r["vm"] for r in vms]
    out["csvCompletionNanos"] = {r["vm"]: int(r["completionNanos"]) if r["completionNanos"] else None for r in vms}
    out["csvVcpuRows"] = len(rows(results.get_experiment_results_csv(queued.id, table="vcpus")))

    with open(sweep_file, encoding="utf-8") as f:
        definition = SweepDefinition.from_json(f.read())
    sweep = sweeps.submit_sweep(definition)
    deadline = time.monotonic() + SWEEP_WITHIN_SECONDS
    while sweep.status not in FINAL:
        if time.monotonic() > deadline:
            raise SystemExit("sweep still " + sweep.status)
        time.sleep(0.2)
        sweep = sweeps.get_sweep(sweep.id)
    out["sweepStatus"] = sweep.status
    out["sweepTotal"] = sweep.total
    table = sweeps.get_sweep_table(sweep.id)
    out["sweepRows"] = [{"cellKey": r.cell_key, "metric": r.metric, "n": r.n, "mean": r.mean} for r in table.rows]
    table_csv = rows(sweeps.get_sweep_table_csv(sweep.id))
    out["sweepCsvRows"] = [{"cellKey": r["cellKey"], "metric": r["metric"], "n": int(r["n"]), "mean": float(r["mean"])}
                           for r in table_csv]

    bad = ExperimentSpec.from_json(spec.to_json())
    bad.scheduler.policy = "credit3"
    try:
        experiments.submit_experiment(bad)
        raise SystemExit("a bad body was accepted")
    except ApiException as e:
        problem = e.data
        out["problem"] = {"httpStatus": e.status, "error": type(e).__name__, "type": problem.type,
                          "status": problem.status, "pointers": [err.pointer for err in problem.errors]}

    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
