package io.schedlab.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: unknown commands, help for every command, parse errors and --trace. */
class CliTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    private int run(String... args) {
        return Cli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aNonOptionFirstArgumentNeverStartsTheService() {
        assertThat(Cli.handles(new String[] {"frob"})).isTrue();
        assertThat(Cli.handles(new String[] {"simulat", "x.json"})).isTrue();
        assertThat(Cli.handles(new String[] {"--server.port=9090"})).isFalse();
        assertThat(Cli.handles(new String[] {})).isFalse();
        assertThat(run("simulat", "x.json")).isEqualTo(2);
        assertThat(err()).contains("unknown command 'simulat'", "usage: schedlab simulate");
        assertThat(out()).isEmpty();
    }

    @Test
    void helpPrintsEveryOptionOfEveryCommand() {
        assertThat(run("help")).isZero();
        assertThat(out()).contains("--out", "--trace", "--quick", "--policy", "--seconds", "--repeat", "--warmup",
                "--scale");
        for (List<String> c : List.of(List.of("simulate", "--out", "--trace", "--perfetto"), List.of("scenario", "--quick", "list"),
                List.of("bench", "--policy", "--seconds", "--repeat", "--warmup", "--scale", "--pcpus"))) {
            out.reset();
            assertThat(run(c.get(0), "--help")).as(c.get(0)).isZero();
            assertThat(out()).as(c.get(0)).contains("usage: schedlab " + c.get(0)).contains(c.subList(1, c.size()));
        }
        assertThat(err()).isEmpty();
    }

    @Test
    void theApplicationsOwnCommandsAreNamedByHelpAndByAnUnknownCommandsError() {
        List<Cli.OtherCommand> others = List.of(new Cli.OtherCommand("apikey", "usage: schedlab apikey new ..."));
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertThat(Cli.run(new String[] {"help"}, o, e, others)).isZero();
        assertThat(out()).contains("usage: schedlab apikey new ...", "usage: schedlab bench");
        assertThat(Cli.run(new String[] {"frob"}, o, e, others)).isEqualTo(2);
        assertThat(err()).contains("known: simulate, scenario, bench, calibrate, help, apikey", "usage: schedlab apikey new ...");
    }

    @Test
    void aParseErrorWithoutAPathHasNoDanglingAt() throws IOException {
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "");
        assertThat(run("simulate", bad.toString())).isEqualTo(2);
        assertThat(err()).contains("is not a valid experiment document").doesNotContain(" at \n")
                .doesNotEndWith(" at " + System.lineSeparator());
        err.reset();
        Files.writeString(bad, "{\"vms\": [{\"vcpus\": \"many\"}]}");
        assertThat(run("simulate", bad.toString())).isEqualTo(2);
        assertThat(err()).contains(" at ").contains("vcpus");
    }

    @Test
    void anOptionWithoutItsValueIsAClearError() {
        assertThat(run("simulate", "x.json", "--out")).isEqualTo(2);
        assertThat(err()).contains("--out needs a file name", "usage: schedlab simulate");
        err.reset();
        assertThat(run("bench", "--seconds")).isEqualTo(2);
        assertThat(err()).contains("--seconds needs a value", "usage: schedlab bench");
    }

    @Test
    void traceOptionTurnsTracingOn() throws IOException {
        Path spec = dir.resolve("small.json");
        Files.writeString(spec, """
                {"durationSeconds": 1, "host": {"sockets": 1, "coresPerSocket": 2},
                 "scheduler": {"policy": "static"},
                 "vms": [{"name": "a", "vcpus": 1, "workload": {"type": "cpu-loop", "params": {"workSeconds": 0.5}}}]}
                """);
        Path trace = dir.resolve("trace.csv");
        assertThat(run("simulate", spec.toString(), "--trace", trace.toString(), "--out",
                dir.resolve("r.json").toString())).as(err()).isZero();
        List<String> lines = Files.readAllLines(trace);
        assertThat(lines.get(0)).isEqualTo("time_ns,pcpu,event,vm,vcpu");
        assertThat(lines.size()).isGreaterThan(1);
        assertThat(lines.subList(1, lines.size())).anyMatch(l -> l.contains(",a,"));
    }

    @Test
    void perfettoOptionWritesTheTraceAsTraceEventJson() throws IOException {
        Path spec = dir.resolve("small.json");
        Files.writeString(spec, """
                {"durationSeconds": 1, "host": {"sockets": 1, "coresPerSocket": 2},
                 "scheduler": {"policy": "static"},
                 "vms": [{"name": "a", "vcpus": 1, "workload": {"type": "cpu-loop", "params": {"workSeconds": 0.5}}}]}
                """);
        Path json = dir.resolve("trace.json");
        assertThat(run("simulate", spec.toString(), "--perfetto", json.toString(), "--out",
                dir.resolve("r.json").toString())).as(err()).isZero();
        io.schedlab.engine.trace.PerfettoChecks.Contents file =
                io.schedlab.engine.trace.PerfettoChecks.check(Files.readAllBytes(json));
        assertThat(file.slices()).isNotEmpty().allMatch(s -> s.vm().equals("a"));
    }

    @Test
    void quickScenarioRunsSayTheirShapeCanDiffer() {
        assertThat(ScenarioCommand.run(new String[] {"E5", "--quick"}, new PrintStream(out, true,
                StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))).isZero();
        assertThat(err()).contains("smoke run", "shape can differ");
    }
}
