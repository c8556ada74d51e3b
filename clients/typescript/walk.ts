// The README's walk-through on a TypeScript client made from openapi.yaml with openapi-typescript
// (types, default options) and openapi-fetch, with nothing but what those offer.
//
//     node walk.js BASE_URL EXPERIMENT_JSON SWEEP_JSON
//
// Submits the experiment, follows its progress stream (server-sent events, each typed as the
// ExperimentStatusEvent component) until the final status, reads its result as JSON and as CSV,
// runs the sweep and reads its table (JSON and CSV), and sends a bad body to read the
// problem+json answer as a typed error. Prints one line of JSON saying what each step read;
// exits non-zero when a step fails.
import { readFileSync } from "node:fs";
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type ExperimentSpec = components["schemas"]["ExperimentSpec"];
type SweepDefinition = components["schemas"]["SweepDefinition"];
type StatusEvent = components["schemas"]["ExperimentStatusEvent"];
type Problem = components["schemas"]["Problem"];

const FINAL = new Set(["SUCCEEDED", "FAILED", "CANCELLED"]);
const SWEEP_WITHIN_MS = 120_000;

function fail(message: string): never {
  throw new Error(message);
}

/** The events of a text/event-stream body: field lines, a blank line ends an event. */
async function* statusEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<StatusEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  let fields: Record<string, string> = {};
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      return;
    }
    buffered += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, end).replace(/\r$/, "");
      buffered = buffered.slice(end + 1);
      if (line === "") {
        if (fields.data !== undefined) {
          yield { event: fields.event as StatusEvent["event"], id: fields.id ?? "", data: JSON.parse(fields.data) };
        }
        fields = {};
        continue;
      }
      const colon = line.indexOf(":");
      const name = colon < 0 ? line : line.slice(0, colon);
      let field = colon < 0 ? "" : line.slice(colon + 1);
      if (field.startsWith(" ")) {
        field = field.slice(1);
      }
      if (name === "") {
        continue; // a comment line
      }
      fields[name] = name === "data" && fields.data !== undefined ? fields.data + "\n" + field : field;
    }
  }
}

/** A tidy CSV answer (RFC 4180 quoting, LF line ends) as objects keyed by the header. */
function rows(text: string): Record<string, string>[] {
  if (text.includes("\r")) {
    fail("CSV has CR line ends");
  }
  const records: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ",") {
      record.push(cell);
      cell = "";
    } else if (c === "\n") {
      record.push(cell);
      records.push(record);
      record = [];
      cell = "";
    } else {
      cell += c;
    }
  }
  const [header, ...body] = records;
  return body.map((r) => Object.fromEntries(header.map((name, i) => [name, r[i] ?? ""])));
}

async function main(baseUrl: string, experimentFile: string, sweepFile: string): Promise<void> {
  const client = createClient<paths>({ baseUrl });
  const out: Record<string, unknown> = {};

  const spec = JSON.parse(readFileSync(experimentFile, "utf-8")) as ExperimentSpec;
  const submitted = await client.POST("/api/v1/experiments", { body: spec });
  const queued = submitted.data ?? fail("submit: " + JSON.stringify(submitted.error));
  const id = queued.id ?? fail("submit: no id");
  out.submitted = queued.status;

  // progress until the final status, over the server-sent events stream
  const statuses: string[] = [];
  const stream = await client.GET("/api/v1/experiments/{id}/events", { params: { path: { id } }, parseAs: "stream" });
  for await (const event of statusEvents(stream.data ?? fail("events: " + stream.response.status))) {
    if (event.data.id !== id) {
      fail("event of another experiment: " + event.data.id);
    }
    const status = event.data.status ?? fail("event without status");
    if (statuses[statuses.length - 1] !== status) {
      statuses.push(status);
    }
    out.lastEventId = event.id;
    if (FINAL.has(status)) {
      break;
    }
  }
  out.statuses = statuses;

  const result = await client.GET("/api/v1/experiments/{id}/results", { params: { path: { id } } });
  const document = result.data ?? fail("results: " + JSON.stringify(result.error));
  const vms = document.vms ?? fail("results: no vms");
  out.partial = document.partial;
  out.resultVms = vms.map((vm) => vm.name);
  out.completionNanos = Object.fromEntries(vms.map((vm) => [vm.name, vm.completionNanos ?? null]));
  out.resultVcpus = vms.reduce((n, vm) => n + (vm.vcpus?.length ?? 0), 0);
  const headline = document.summary?.vmHeadline?.["VM1"] ?? fail("results: no headline of VM1");
  out.vm1Headline = { value: headline.value, unit: headline.unit };

  const csv = await client.GET("/api/v1/experiments/{id}/results.csv", { params: { path: { id } }, parseAs: "text" });
  const vmRows = rows(csv.data ?? fail("results.csv: " + csv.response.status));
  out.csvVms = vmRows.map((r) => r.vm);
  out.csvCompletionNanos = Object.fromEntries(
    vmRows.map((r) => [r.vm, r.completionNanos === "" ? null : Number(r.completionNanos)]));
  const vcpuCsv = await client.GET("/api/v1/experiments/{id}/results.csv",
    { params: { path: { id }, query: { table: "vcpus" } }, parseAs: "text" });
  out.csvVcpuRows = rows(vcpuCsv.data ?? fail("results.csv?table=vcpus: " + vcpuCsv.response.status)).length;

  const definition = JSON.parse(readFileSync(sweepFile, "utf-8")) as SweepDefinition;
  const posted = await client.POST("/api/v1/sweeps", { body: definition });
  let sweep = posted.data ?? fail("submit sweep: " + JSON.stringify(posted.error));
  const sweepId = sweep.id ?? fail("submit sweep: no id");
  const deadline = Date.now() + SWEEP_WITHIN_MS;
  while (!FINAL.has(sweep.status ?? "")) {
    if (Date.now() > deadline) {
      fail("sweep still " + sweep.status);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const polled = await client.GET("/api/v1/sweeps/{id}", { params: { path: { id: sweepId } } });
    sweep = polled.data ?? fail("get sweep: " + JSON.stringify(polled.error));
  }
  out.sweepStatus = sweep.status;
  out.sweepTotal = sweep.total;
  const table = await client.GET("/api/v1/sweeps/{id}/table", { params: { path: { id: sweepId } } });
  out.sweepRows = (table.data?.rows ?? fail("table: " + JSON.stringify(table.error)))
    .map((r) => ({ cellKey: r.cellKey, metric: r.metric, n: r.n, mean: r.mean }));
  const tableCsv = await client.GET("/api/v1/sweeps/{id}/table.csv", { params: { path: { id: sweepId } }, parseAs: "text" });
  out.sweepCsvRows = rows(tableCsv.data ?? fail("table.csv: " + tableCsv.response.status))
    .map((r) => ({ cellKey: r.cellKey, metric: r.metric, n: Number(r.n), mean: Number(r.mean) }));

  const bad: ExperimentSpec = { ...spec, scheduler: { ...spec.scheduler, policy: "credit3" } };
  const refused = await client.POST("/api/v1/experiments", { body: bad });
  if (refused.data !== undefined) {
    fail("a bad body was accepted");
  }
  const problem: Problem = refused.error ?? fail("no problem for a bad body");
  out.problem = {
    httpStatus: refused.response.status, type: problem.type, status: problem.status,
    pointers: (problem.errors ?? []).map((e) => e.pointer),
  };

  console.log(JSON.stringify(out));
}

const [baseUrl, experimentFile, sweepFile] = process.argv.slice(2);
if (!baseUrl || !experimentFile || !sweepFile) {
  console.error("usage: node walk.js BASE_URL EXPERIMENT_JSON SWEEP_JSON");
  process.exit(2);
}
main(baseUrl, experimentFile, sweepFile).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
