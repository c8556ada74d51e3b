package io.schedlab.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.schedlab.SchedLabApplication;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The README's walk-through in another language, on a client generated from openapi.yaml with default options,
 * run as a program against the service on a random port: submit {@value #EXPERIMENT}, follow its progress
 * stream to the final status, read the result as JSON and as CSV, run {@value #SWEEP} and read its table both
 * ways, and read a bad body's problem+json as a typed error. The program prints one line of JSON; this checks
 * it, so a walk that breaks (or a contract change that breaks the generated client) fails the build.
 */
@SpringBootTest(classes = SchedLabApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"schedlab.jobs.workers=1", "schedlab.limits.queue-depth-cache=0s"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS) // each walk its own service and database, closed after
abstract class ClientWalkTest {

    /** The README's first example. */
    static final String EXPERIMENT = "examples/seed-001-static.json";
    /** Two policies x two repetitions of examples/small.json. */
    static final String SWEEP = "clients/small-sweep.json";
    private static final Duration STEP_WITHIN = Duration.ofMinutes(4); // under the 5 m default test timeout: fail with its output
    private static final String PROBLEMS = "https://schedlab.io/problems/";

    @LocalServerPort
    int port;

    /** Builds what the walk needs (generating, compiling) and returns its command line, run from {@link #workDir()}. */
    abstract List<String> prepareWalk(String baseUrl, Path repository) throws IOException, InterruptedException;

    /** Where the walk's command runs. */
    abstract Path workDir();

    /** Environment the walk's commands get on top of this process's. */
    Map<String, String> environment() {
        return Map.of();
    }

    @Test
    void theReadmeWalkThroughRunsOnTheGeneratedClient() throws Exception {
        Path repository = Path.of("").toAbsolutePath();
        List<String> walk = prepareWalk("http://localhost:" + port, repository);
        String printed = run(walk, workDir(), "walk");
        List<String> lines = printed.lines().filter(l -> !l.isBlank()).toList();
        assertThat(lines).as("the walk prints its summary line").isNotEmpty();
        JsonNode s = JsonMapper.builder().build().readTree(lines.get(lines.size() - 1));

        // submitted, then followed over server-sent events until the final status
        assertThat(s.path("submitted").asString()).isIn("QUEUED", "RUNNING");
        List<String> statuses = strings(s.path("statuses"));
        assertThat(statuses).isNotEmpty().last().isEqualTo("SUCCEEDED");
        assertThat(List.of("QUEUED", "RUNNING", "SUCCEEDED")).containsSubsequence(statuses);
        assertThat(s.path("lastEventId").asString()).startsWith("SUCCEEDED/");

        // the result as JSON: the README's numbers (seed 001 static ~193 s for VM1; dom0, VM1, VM3)
        assertThat(s.path("partial").isBoolean()).isTrue();
        assertThat(s.path("partial").asBoolean()).isFalse();
        assertThat(strings(s.path("resultVms"))).containsExactly("dom0", "VM1", "VM3");
        assertThat(s.at("/vm1Headline/unit").asString()).isEqualTo("s");
        assertThat(s.at("/vm1Headline/value").asDouble()).isBetween(190.0, 194.0);

        // the same as CSV: the same VMs and numbers, one row per vCPU in the other table
        assertThat(s.path("csvVms")).isEqualTo(s.path("resultVms"));
        assertThat(s.path("csvCompletionNanos")).isEqualTo(s.path("completionNanos"));
        assertThat(s.path("completionNanos").path("VM1").asLong()).isPositive();
        assertThat(s.path("resultVcpus").asInt()).isPositive();
        assertThat(s.path("csvVcpuRows").asInt()).isEqualTo(s.path("resultVcpus").asInt());

        // the sweep: 2 policies x 2 repetitions, 2 metrics; its table as JSON and as CSV agree
        assertThat(s.path("sweepStatus").asString()).isEqualTo("SUCCEEDED");
        assertThat(s.path("sweepTotal").asInt()).isEqualTo(4);
        JsonNode rows = s.path("sweepRows");
        JsonNode csvRows = s.path("sweepCsvRows");
        assertThat(rows.size()).isEqualTo(4);
        assertThat(csvRows.size()).isEqualTo(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            JsonNode row = rows.path(i);
            JsonNode csvRow = csvRows.path(i);
            assertThat(row.path("cellKey").asString()).isIn("policy=static", "policy=credit");
            assertThat(row.path("n").asInt()).as("both repetitions counted").isEqualTo(2);
            assertThat(csvRow.path("cellKey").asString()).isEqualTo(row.path("cellKey").asString());
            assertThat(csvRow.path("metric").asString()).isEqualTo(row.path("metric").asString());
            assertThat(csvRow.path("n").asInt()).isEqualTo(row.path("n").asInt());
            assertThat(csvRow.path("mean").asDouble()).isEqualTo(row.path("mean").asDouble());
        }

        // a bad body: 422 problem+json, read as the generated Problem with the field's pointer
        JsonNode problem = s.path("problem");
        assertThat(problem.path("httpStatus").asInt()).isEqualTo(422);
        assertThat(problem.path("status").asInt()).isEqualTo(422);
        assertThat(problem.path("type").asString()).isEqualTo(PROBLEMS + "invalid-experiment");
        assertThat(strings(problem.path("pointers"))).contains("/scheduler/policy");
    }

    /** Runs one command to its end; fails with its output when it exits non-zero or takes too long. */
    String run(List<String> command, Path dir, String step) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path out = dir.resolve(step + ".out");
        Path err = dir.resolve(step + ".err");
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(environment());
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            return fail(step + ": cannot start " + command.get(0) + " (" + e.getMessage() + ")");
        }
        if (!process.waitFor(STEP_WITHIN.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            fail(step + " still running after " + STEP_WITHIN + ": " + String.join(" ", command) + "\n"
                    + Files.readString(err, StandardCharsets.UTF_8));
        }
        String printed = Files.readString(out, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            fail(step + " exited " + process.exitValue() + ": " + String.join(" ", command) + "\n" + printed + "\n"
                    + Files.readString(err, StandardCharsets.UTF_8));
        }
        return printed;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asString()));
        return out;
    }
}
