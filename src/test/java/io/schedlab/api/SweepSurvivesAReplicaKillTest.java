package io.schedlab.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.jobs.support.FreshPostgresDatabase;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A sweep spread over two real service processes (each its own JVM) on one fresh PostgreSQL
 * database; one replica is frozen while it runs children and killed with SIGKILL. The sweep still completes:
 * every child SUCCEEDED exactly once (what the dead replica finished stays finished, what it held
 * is finished by the survivor, which starts no child twice), no job is left behind and the table is
 * complete. Heartbeats every 500 ms (dead after 2 s) keep the take-over short, and the JIT's first
 * tier only ({@code TieredStopAtLevel=1}) the start-up of two JVMs on a small machine.
 */
class SweepSurvivesAReplicaKillTest {

    private static final int CELLS = 2;
    private static final int REPETITIONS = 16;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void theSweepCompletesWithEveryChildSucceededExactlyOnce() throws Exception {
        Path workDir = Files.createTempDirectory(Path.of("target"), "sweep-kill-").toAbsolutePath();
        try (FreshPostgresDatabase db = FreshPostgresDatabase.create()) {
            int portA = ServiceProcesses.freePort();
            int portB = ServiceProcesses.freePort();
            // started together (Flyway takes a PostgreSQL advisory lock: one migrates, the other waits)
            Process a = start(db, "replica-a", portA, workDir);
            Process b = start(db, "replica-b", portB, workDir);
            try {
                ServiceProcesses.awaitReady(http, portA, a, workDir.resolve("replica-a.log"));
                ServiceProcesses.awaitReady(http, portB, b, workDir.resolve("replica-b.log"));
                // submitted to the replica to be killed: its workers start at once (immediate execution)
                HttpResponse<String> accepted = post(portB, "/api/v1/sweeps",
                        Files.readString(Path.of("src/test/resources/service/sweep-replica-kill.json")));
                assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
                String sweepId = json.readTree(accepted.body()).path("id").asString();
                assertThat(json.readTree(accepted.body()).path("total").asInt()).isEqualTo(CELLS * REPETITIONS);

                try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password())) {
                    // SIGKILL mid-sweep while replica-b runs children
                    Set<String> heldByB = ServiceProcesses.killWhileHolding(b, c, "replica-b", Duration.ofSeconds(60),
                            () -> midSweep(c));
                    Instant killedAt = Instant.now();

                    JsonNode sweep = awaitFinished(portA, sweepId, Duration.ofSeconds(120));
                    assertThat(sweep.path("status").asString()).as(sweep.toString()).isEqualTo("SUCCEEDED");
                    assertThat(sweep.path("done").asInt()).isEqualTo(CELLS * REPETITIONS);

                    Map<String, String[]> children = children(c, sweepId);
                    assertThat(children).hasSize(CELLS * REPETITIONS);
                    assertThat(RunRows.count(c, "select count(distinct cell_index * 1000 + repetition) from sweep_experiments"
                            + " where sweep_id = '" + sweepId + "'")).isEqualTo(CELLS * REPETITIONS);
                    for (Map.Entry<String, String[]> child : children.entrySet()) {
                        assertThat(child.getValue()[0]).as("status of " + child.getKey()).isEqualTo("SUCCEEDED");
                        assertThat(child.getValue()[1]).as("result of " + child.getKey()).isEqualTo("true");
                        if ("replica-b".equals(child.getValue()[2])) { // finished before the kill, never again
                            assertThat(Instant.parse(child.getValue()[3])).isBefore(killedAt);
                        }
                    }
                    for (String id : heldByB) {
                        assertThat(children.get(id)[2]).as("taken over: " + id).isEqualTo("replica-a");
                    }
                    long finishedOnA = children.values().stream().filter(r -> "replica-a".equals(r[2])).count();
                    assertThat(runsStarted(portA)).as("runs replica-a started: one per child it finished")
                            .isEqualTo(finishedOnA);
                    assertThat(RunRows.count(c, "select count(*) from scheduled_tasks")).as("jobs left").isZero();

                    JsonNode table = get(portA, "/api/v1/sweeps/" + sweepId + "/table");
                    assertThat(table.path("complete").asBoolean()).isTrue();
                    assertThat(table.path("rows")).hasSize(CELLS * 2);
                    for (JsonNode row : table.path("rows")) {
                        assertThat(row.path("n").asInt()).as(row.toString()).isEqualTo(REPETITIONS);
                        assertThat(row.path("missing").asInt()).as(row.toString()).isZero();
                    }
                    System.out.printf("killed replica-b holding %d children; %d finished on b, %d on a%n",
                            heldByB.size(), CELLS * REPETITIONS - finishedOnA, finishedOnA);
                }
            } finally {
                b.destroyForcibly();
                a.destroy();
                if (!a.waitFor(30, TimeUnit.SECONDS)) {
                    a.destroyForcibly();
                }
            }
        }
    }

    private static Process start(FreshPostgresDatabase db, String name, int port, Path workDir) throws IOException {
        return ServiceProcesses.startReplica(db, name, port, workDir, List.of("-XX:TieredStopAtLevel=1"),
                "--schedlab.jobs.heartbeat-interval=500ms", "--schedlab.data-dir=" + workDir.resolve("data-" + name));
    }

    /** Whether replica-b runs a child (after finishing one, when it can) while children are still queued. */
    private static boolean midSweep(Connection c) throws Exception {
        boolean finishedOne = RunRows.count(c, "select count(*) from experiments where run_by = 'replica-b' and status"
                + " = 'SUCCEEDED'") > 0;
        long queued = RunRows.count(c, "select count(*) from experiments where status = 'QUEUED'");
        return RunRows.count(c, "select count(*) from scheduled_tasks where picked and picked_by = 'replica-b'") > 0
                && (finishedOne ? queued > 2 : queued <= 2 * CELLS * REPETITIONS / 3);
    }

    private JsonNode awaitFinished(int port, String sweepId, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode sweep = get(port, "/api/v1/sweeps/" + sweepId);
        while (!List.of("SUCCEEDED", "FAILED", "CANCELLED").contains(sweep.path("status").asString())
                && System.nanoTime() < deadline) {
            Thread.sleep(200);
            sweep = get(port, "/api/v1/sweeps/" + sweepId);
        }
        return sweep;
    }

    /** Runs this replica started: the count of its queue-wait timer (recorded once per started run), all policies. */
    private long runsStarted(int port) throws Exception {
        String text = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        double sum = 0;
        for (String line : text.split("\n")) {
            if (line.startsWith("schedlab_queue_wait_seconds_count{")) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return Math.round(sum);
    }

    private HttpResponse<String> post(int port, String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode get(int port, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return json.readTree(r.body());
    }

    /** Child id -> {status, has result, run_by, finished_at}. */
    private static Map<String, String[]> children(Connection c, String sweepId) throws Exception {
        return RunRows.runs(c, "select e.id, e.status, e.result is not null, e.run_by, e.finished_at from"
                + " sweep_experiments se join experiments e on e.id = se.experiment_id where se.sweep_id = '"
                + sweepId + "'");
    }
}
