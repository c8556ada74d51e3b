package io.schedlab.engine.cli;

import io.schedlab.engine.Engine;
import io.schedlab.engine.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.metrics.TraceSink;
import io.schedlab.engine.result.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.Violation;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** {@code simulate FILE [--out F] [--trace F]}: validate, run and print the result document as JSON. */
final class SimulateCommand {
    private SimulateCommand() {
    }

    static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    static int run(String[] args) {
        if (args.length < 2) {
            return Cli.usage();
        }
        Path file = Path.of(args[1]);
        Path out = null;
        Path traceFile = null;
        for (int i = 2; i < args.length; i++) {
            if ("--out".equals(args[i]) && i + 1 < args.length) {
                out = Path.of(args[++i]);
            } else if ("--trace".equals(args[i]) && i + 1 < args.length) {
                traceFile = Path.of(args[++i]);
            } else {
                throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        ExperimentSpec spec;
        try {
            spec = JSON.readValue(file.toFile(), ExperimentSpec.class);
        } catch (JacksonException e) {
            System.err.println("error: " + file + " is not a valid experiment document: " + e.getOriginalMessage()
                    + " at " + e.getPathReference());
            return 2;
        }
        Engine engine = Engine.standard();
        Validation v = engine.validate(spec, Limits.defaults());
        if (!v.valid()) {
            for (Violation violation : v.violations()) {
                System.err.println("invalid: " + violation.pointer() + ": " + violation.message());
            }
            return 2;
        }
        ResultDocument doc;
        if (traceFile != null) {
            try (BufferedWriter w = Files.newBufferedWriter(traceFile, StandardCharsets.UTF_8)) {
                w.write("time_ns,pcpu,event,vm,vcpu\n");
                doc = engine.run(v.normalized(), Limits.defaults(), controlWithTrace(w));
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
            PrintStream stdout = System.out;
            stdout.println(json);
        }
        return 0;
    }

    /** A control whose trace sink writes CSV lines: time_ns,pcpu,event,vm,vcpu. */
    private static RunControl controlWithTrace(BufferedWriter w) {
        TraceSink sink = (t, p, e, vm, vcpu) -> {
            try {
                w.write(t + "," + p + "," + e + "," + (vm == null ? "" : vm) + "," + vcpu + "\n");
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        };
        return new RunControl() {
            @Override
            public void progress(double fraction, long simulatedNanos, long eventsProcessed) {
            }

            @Override
            public boolean cancelRequested() {
                return false;
            }

            @Override
            public TraceSink traceSink() {
                return sink;
            }
        };
    }
}
