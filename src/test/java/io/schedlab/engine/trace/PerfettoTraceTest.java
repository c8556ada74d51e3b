package io.schedlab.engine.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.recording.TraceCsv;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The Perfetto (Chrome trace-event JSON) export of an engine trace. */
class PerfettoTraceTest {

    /** Two pCPUs, interactive vCPUs that wake and block next to CPU hogs, credit: preemptions and migrations. */
    static final String BUSY = """
            {"name": "perfetto", "seed": 5, "durationSeconds": 0.2, "stopWhen": "duration",
             "host": {"sockets": 1, "coresPerSocket": 2},
             "scheduler": {"policy": "credit"},
             "trace": {"enabled": true},
             "vms": [
               {"name": "web", "vcpus": 2, "workload": {"type": "interactive", "params": {"threads": 2, "thinkMeanMs": 2.0, "burstMeanUs": 400.0}}},
               {"name": "batch", "vcpus": 2, "workload": {"type": "cpu-loop", "params": {"threads": 2, "workSeconds": 0.0}}}
             ]}
            """;

    record Run(String csv, byte[] live, ResultDocument doc, long maxEvents) {
    }

    /** Runs BUSY with its trace going both to a CSV and, live, to the converter (as the command line does). */
    static Run run(String specJson) {
        Engine engine = Engine.standard();
        Validation v = engine.validate(JsonMapper.builder().build().readValue(specJson, ExperimentSpec.class), Limits.defaults());
        assertThat(v.valid()).as(v.violations().toString()).isTrue();
        ExperimentSpec spec = v.normalized();
        StringWriter csv = new StringWriter();
        ByteArrayOutputStream live = new ByteArrayOutputStream();
        PerfettoTrace perfetto = PerfettoTrace.open(live, new PerfettoTrace.Options(spec.name(), 2, spec.trace().maxEvents()));
        ResultDocument doc;
        try (CSVPrinter printer = TraceCsv.FORMAT.print(csv)) {
            var rows = TraceCsv.printingTo(printer);
            doc = engine.run(spec, Limits.defaults(), RunControl.tracingTo((t, p, e, vm, vcpu) -> {
                rows.record(t, p, e, vm, vcpu);
                perfetto.record(t, p, e, vm, vcpu);
            }));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        perfetto.finish(doc.summary().simulatedNanos());
        return new Run(csv.toString(), live.toByteArray(), doc, spec.trace().maxEvents());
    }

    static List<CSVRecord> records(String csv) {
        try (CSVParser parser = CSVParser.parse(new StringReader(csv),
                CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get())) {
            return new ArrayList<>(parser.getRecords());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aTracedRunBecomesAValidTraceWithEveryRunAsASlice() {
        Run run = run(BUSY);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PerfettoTrace.Summary summary = PerfettoTrace.fromCsv(new StringReader(run.csv()), out,
                new PerfettoTrace.Options("perfetto", 2, run.maxEvents()), run.doc().summary().simulatedNanos());
        assertThat(out.toByteArray()).as("the stored CSV and the live records give the same file").isEqualTo(run.live());
        assertThat(summary.cut()).isFalse();

        PerfettoChecks.Contents file = PerfettoChecks.check(out.toByteArray());
        List<CSVRecord> records = records(run.csv());
        List<CSVRecord> runs = records.stream().filter(r -> r.get("event").equals("switch") && !r.get("vm").isEmpty()).toList();
        long migrations = records.stream().filter(r -> r.get("event").equals("migrate")).count();
        assertThat(runs).hasSizeGreaterThan(100);
        assertThat(migrations).as("the run migrates vCPUs").isPositive();
        assertThat(records).anyMatch(r -> r.get("event").equals("block"));

        // every vCPU run of the CSV is a slice starting at its switch, on its pCPU's track
        assertThat(file.slices()).hasSize(runs.size());
        for (CSVRecord r : runs) {
            assertThat(file.slices()).as("slice for " + r).anyMatch(s -> s.tid() == Integer.parseInt(r.get("pcpu"))
                    && s.ts().compareTo(PerfettoChecks.micros(Long.parseLong(r.get("time_ns")))) == 0
                    && s.vm().equals(r.get("vm")) && s.vcpu() == Integer.parseInt(r.get("vcpu")));
        }
        // one flow per migrate record; runs still open end at the simulated end
        assertThat(file.flows()).isEqualTo(migrations);
        assertThat(summary.flows()).isEqualTo(migrations);
        assertThat(file.counters()).isPositive();
        assertThat(file.slices().stream().map(PerfettoChecks.Slice::end).max(java.math.BigDecimal::compareTo).orElseThrow())
                .isEqualByComparingTo(PerfettoChecks.micros(run.doc().summary().simulatedNanos()));
        // tracks named "pCPU N" in one host process
        assertThat(file.root().path("traceEvents").valueStream()
                .filter(e -> e.path("name").asString().equals("thread_name"))
                .map(e -> e.path("args").path("name").asString())).containsExactly("pCPU 0", "pCPU 1");
    }

    @Test
    void aSmallTraceMapsToExactSlicesFlowsAndRunQueueCounts() {
        String csv = """
                time_ns,pcpu,event,vm,vcpu
                0,,vm-start,a,
                0,0,wake,a,0
                0,0,tickle,,
                10,0,switch,a,0
                400,0,wake,b,0
                1000,0,switch,b,0
                1500,1,migrate,a,0
                1500,1,switch,a,0
                2500,1,block,a,0
                2500,1,switch,,
                """;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PerfettoTrace.Summary summary = PerfettoTrace.fromCsv(new StringReader(csv), out,
                new PerfettoTrace.Options("small", 2, 0), 3000);
        assertThat(summary).isEqualTo(new PerfettoTrace.Summary(10, 3, 1, 8, false));
        PerfettoChecks.Contents file = PerfettoChecks.check(out.toByteArray());
        assertThat(file.slices()).containsExactlyInAnyOrder(
                new PerfettoChecks.Slice(0, PerfettoChecks.micros(10), PerfettoChecks.micros(990), "a", 0),
                new PerfettoChecks.Slice(0, PerfettoChecks.micros(1000), PerfettoChecks.micros(2000), "b", 0),
                new PerfettoChecks.Slice(1, PerfettoChecks.micros(1500), PerfettoChecks.micros(1000), "a", 0));
        List<JsonNode> events = file.root().path("traceEvents").valueStream().toList();
        JsonNode start = events.stream().filter(e -> e.path("ph").asString().equals("s")).findFirst().orElseThrow();
        JsonNode end = events.stream().filter(e -> e.path("ph").asString().equals("f")).findFirst().orElseThrow();
        // from the middle of a's run on pCPU 0 to the middle of its run on pCPU 1
        assertThat(start.path("tid").asInt()).isZero();
        assertThat(start.path("ts").decimalValue()).isEqualByComparingTo("0.505");
        assertThat(end.path("tid").asInt()).isEqualTo(1);
        assertThat(end.path("ts").decimalValue()).isEqualByComparingTo("2");
        // pCPU 0's run queue: 0, a wakes (1), a runs (0), b wakes (1), a preempted (2), b runs (1), a leaves (0)
        assertThat(events.stream().filter(e -> e.path("name").asString().equals("runqueue pCPU 0"))
                .map(e -> e.path("args").path("vcpus").asInt())).containsExactly(0, 1, 0, 1, 2, 1, 0);
        assertThat(events.stream().filter(e -> e.path("name").asString().equals("runqueue pCPU 1"))
                .map(e -> e.path("args").path("vcpus").asInt())).containsExactly(0);
    }

    @Test
    void aTraceCutAtItsBoundEndsItsOpenRunsAtItsLastRecord() {
        String csv = """
                time_ns,pcpu,event,vm,vcpu
                10,0,switch,a,0
                20,1,switch,b,0
                """;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PerfettoTrace.Summary summary = PerfettoTrace.fromCsv(new StringReader(csv), out,
                new PerfettoTrace.Options("cut", 1, 2), 1_000_000);
        assertThat(summary.cut()).isTrue();
        PerfettoChecks.Contents file = PerfettoChecks.check(out.toByteArray());
        assertThat(file.slices()).containsExactly(
                new PerfettoChecks.Slice(0, PerfettoChecks.micros(10), PerfettoChecks.micros(10), "a", 0),
                new PerfettoChecks.Slice(1, PerfettoChecks.micros(20), PerfettoChecks.micros(0), "b", 0));
        assertThat(file.root().path("otherData").path("traceCut").asBoolean()).isTrue();
    }
}
