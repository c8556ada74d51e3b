package io.schedlab.engine.cli;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.recording.TraceCsv;
import io.schedlab.engine.recording.TraceSink;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.TraceSpec;
import io.schedlab.engine.spec.Violation;
import io.schedlab.engine.sim.TopologyBuilder;
import io.schedlab.engine.trace.PerfettoTrace;
import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.csv.CSVPrinter;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code simulate FILE [--out F] [--trace F] [--perfetto F]}: validate, run and print the result document as
 * JSON; the trace as CSV and/or as a Chrome trace-event JSON file for ui.perfetto.dev.
 */
final class SimulateCommand {
    private SimulateCommand() {
    }

    static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    static int run(String[] args, PrintStream stdout, PrintStream stderr) {
        Path file = null;
        Path out = null;
        Path traceFile = null;
        Path perfettoFile = null;
        for (int i = 1; i < args.length; i++) {
            if ("--out".equals(args[i]) || "--trace".equals(args[i]) || "--perfetto".equals(args[i])) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("simulate option " + args[i] + " needs a file name");
                }
                Path p = Path.of(args[++i]);
                switch (args[i - 1]) {
                    case "--out" -> out = p;
                    case "--trace" -> traceFile = p;
                    default -> perfettoFile = p;
                }
            } else if (args[i].startsWith("-")) {
                throw new IllegalArgumentException("unknown simulate option " + args[i]);
            } else if (file == null) {
                file = Path.of(args[i]);
            } else {
                throw new IllegalArgumentException("one experiment FILE only, got also " + args[i]);
            }
        }
        if (file == null) {
            throw new IllegalArgumentException("simulate needs an experiment FILE");
        }
        ExperimentSpec spec;
        try {
            spec = JSON.readValue(file.toFile(), ExperimentSpec.class);
        } catch (JacksonException e) {
            String where = e.getPathReference();
            stderr.println("error: " + file + " is not a valid experiment document: " + e.getOriginalMessage()
                    + (where == null || where.isEmpty() ? "" : " at " + where));
            return 2;
        }
        if (traceFile != null || perfettoFile != null) {
            spec = withTraceOn(spec);
        }
        Engine engine = Engine.standard();
        Validation v = engine.validate(spec, Limits.defaults());
        if (!v.valid()) {
            for (Violation violation : v.violations()) {
                stderr.println("invalid: " + violation.pointer() + ": " + violation.message());
            }
            return 2;
        }
        ResultDocument doc;
        if (traceFile != null || perfettoFile != null) {
            ExperimentSpec normalized = v.normalized();
            try (BufferedWriter w = traceFile == null ? null : Files.newBufferedWriter(traceFile, StandardCharsets.UTF_8);
                    CSVPrinter printer = w == null ? null : TraceCsv.FORMAT.print(w);
                    OutputStream json = perfettoFile == null ? null
                            : new BufferedOutputStream(Files.newOutputStream(perfettoFile))) {
                // the same converter as GET /api/v1/experiments/{id}/trace.perfetto.json, fed as the run goes
                PerfettoTrace perfetto = json == null ? null : PerfettoTrace.open(json, new PerfettoTrace.Options(
                        normalized.name(), TopologyBuilder.build(normalized.host()).size(),
                        normalized.trace().maxEvents()));
                TraceSink csv = printer == null ? TraceSink.NONE : TraceCsv.printingTo(printer);
                TraceSink both = perfetto == null ? csv : (t, p, e, vm, vcpu) -> {
                    csv.record(t, p, e, vm, vcpu);
                    perfetto.record(t, p, e, vm, vcpu);
                };
                doc = engine.run(normalized, Limits.defaults(), RunControl.tracingTo(both));
                if (perfetto != null) {
                    perfetto.finish(doc.summary().simulatedNanos());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            doc = engine.run(v.normalized(), Limits.defaults(), RunControl.NONE);
        }
        String json = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(doc);
        if (out != null) {
            try {
                Files.writeString(out, json + "\n", StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            stdout.println(json);
        }
        return 0;
    }

    /** {@code --trace F} or {@code --perfetto F} asks for the trace, so it turns tracing on (keeping the document's maxEvents). */
    static ExperimentSpec withTraceOn(ExperimentSpec s) {
        Long maxEvents = s.trace() != null ? s.trace().maxEvents() : null;
        return new ExperimentSpec(s.name(), s.labels(), s.seed(), s.durationSeconds(), s.stopWhen(), s.host(),
                s.scheduler(), s.costs(), s.vms(), s.timeline(), new TraceSpec(true, maxEvents));
    }
}
