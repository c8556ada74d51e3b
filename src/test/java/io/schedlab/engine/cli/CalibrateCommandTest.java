package io.schedlab.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.calibration.CalibrationReport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code calibrate}: options, errors, and a small real run writing its section into a document. */
class CalibrateCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    private int run(String... args) {
        return Cli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void helpNamesEveryOption() {
        assertThat(run("calibrate", "--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("usage: schedlab calibrate", "--knobs", "--cases",
                "--evaluations", "--no-fit", "--no-sensitivity", "--threads", "--markdown");
    }

    @Test
    void badOptionsAreUsageErrors() {
        assertThat(run("calibrate", "--evaluations", "0")).isEqualTo(2);
        assertThat(run("calibrate", "--knobs", "costs.nope")).isEqualTo(2);
        assertThat(run("calibrate", "--frob")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--evaluations needs a whole number from 1 to 10000",
                "unknown knob 'costs.nope'; known: costs.decisionBaseNanos", "unknown option --frob");
    }

    @Test
    void aSmallRunWritesTheSensitivitySectionIntoTheDocument() throws IOException {
        Path doc = dir.resolve("fidelity.md");
        Files.writeString(doc, "# Fidelity\n\n## Scorecard\n\nkept\n");
        assertThat(run("calibrate", "--cases", "E1", "--knobs", "costs.ipiLatencyNanos,spinlock.insideUs",
                "--no-fit", "--markdown", doc.toString())).isZero();
        String written = Files.readString(doc);
        assertThat(written).startsWith("# Fidelity\n\n## Scorecard\n\nkept\n\n" + CalibrationReport.HEADING)
                .contains("| costs.ipiLatencyNanos | 1000 ns | sim.Simulator | E1 | 1 / 1 / 1 |")
                .contains("| spinlock.insideUs | 5.000 us | workloads.SpinlockWorkload | none | - | - | moves no case");
    }
}
