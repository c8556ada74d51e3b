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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Two real service processes (each its own JVM, as an operator starts them) on one fresh
 * PostgreSQL database with the default heartbeat settings: small experiments are submitted to both
 * until at least 40 jobs wait, one replica is killed with SIGKILL while it runs some, the rest of the
 * 150 go to the survivor, and then every experiment has SUCCEEDED exactly once: the jobs the dead
 * replica held restart on the survivor within the 15 s bound from the kill, before every newer job
 * still queued when they were revived, and nothing the dead replica had finished is run again.
 */
class TwoReplicasSurviveAKillTest {

    private static final int EXPERIMENTS = 150;
    private static final Duration TAKE_OVER_BOUND = Duration.ofSeconds(15);
    /** Jobs waiting unpicked when replica-b is killed. */
    private static final int FULL_QUEUE = 40;
    /** Submitted right after the kill: newer than every job the killed replica held. */
    private static final int NEWER_AFTER_KILL = 12;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void everyExperimentSucceedsExactlyOnceAndTheSurvivorTakesOverWithinTheBound() throws Exception {
        Path workDir = Files.createTempDirectory(Path.of("target"), "two-replicas-").toAbsolutePath();
        try (FreshPostgresDatabase db = FreshPostgresDatabase.create()) {
            int portA = ServiceProcesses.freePort();
            Process a = start(db, "replica-a", portA, workDir);
            Process b = null;
            try {
                ServiceProcesses.awaitReady(http, portA, a, workDir.resolve("replica-a.log"));
                int portB = ServiceProcesses.freePort();
                b = start(db, "replica-b", portB, workDir);
                ServiceProcesses.awaitReady(http, portB, b, workDir.resolve("replica-b.log"));
                String body = Files.readString(Path.of("src/test/resources/service/replica-kill.json"));
                Set<String> ids = new HashSet<>();
                try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password())) {
                    // submissions to both until the queue is full, then SIGKILL mid-run; what the dead replica still
                    // holds: orphans only another replica can finish
                    Set<String> heldByB = null;
                    Instant killedAt = null;
                    int i = 0;
                    while (heldByB == null && i < EXPERIMENTS) {
                        ids.add(submit(i % 2 == 0 ? portA : portB, body));
                        i++;
                        if (RunRows.count(c, "select count(*) from scheduled_tasks where not picked") >= FULL_QUEUE
                                && holds(c, "replica-b")) {
                            heldByB = ServiceProcesses.killWhileHolding(b, c, "replica-b", Duration.ofSeconds(60),
                                    () -> holds(c, "replica-b"));
                            killedAt = Instant.now();
                        }
                    }
                    assertThat(heldByB).as("replica-b held jobs with " + FULL_QUEUE + " queued").isNotNull();
                    // newer than every held job by construction, behind the full queue: the revived ones go first
                    for (int n = 0; n < NEWER_AFTER_KILL && i < EXPERIMENTS; n++, i++) {
                        ids.add(submit(portA, body));
                    }
                    Duration released = awaitReleased(c, heldByB, Duration.ofSeconds(60));
                    assertThat(released).as("jobs of the killed replica released").isLessThanOrEqualTo(TAKE_OVER_BOUND);
                    // the jobs still queued then and submitted after every job the killed replica held
                    Set<String> newerQueued = newerQueued(c, heldByB);
                    for (; i < EXPERIMENTS; i++) {
                        ids.add(submit(portA, body));
                    }

                    awaitAllFinished(c, Duration.ofSeconds(240));
                    Map<String, String[]> rows = rows(c);
                    assertThat(rows.keySet()).containsExactlyInAnyOrderElementsOf(ids);
                    for (Map.Entry<String, String[]> row : rows.entrySet()) {
                        assertThat(row.getValue()[0]).as("status of " + row.getKey()).isEqualTo("SUCCEEDED");
                        assertThat(row.getValue()[1]).as("result of " + row.getKey()).isEqualTo("true");
                    }
                    for (String id : heldByB) {
                        assertThat(rows.get(id)[2]).as("taken over: " + id).isEqualTo("replica-a");
                    }
                    // interrupted runs first, and within the bound although the queue is full
                    Map<String, Instant> started = startedAt(c);
                    Instant lastRestart = heldByB.stream().map(started::get).max(Instant::compareTo).orElseThrow();
                    Duration takeOver = Duration.between(killedAt, lastRestart);
                    Instant firstNewer = newerQueued.stream().map(started::get).min(Instant::compareTo)
                            .orElse(Instant.MAX);
                    System.out.printf("killed replica-b holding %d jobs; released after %d ms; all restarted on"
                            + " replica-a %d ms after the kill; %d newer jobs were queued then, the first started %s%n",
                            heldByB.size(), released.toMillis(), takeOver.toMillis(), newerQueued.size(),
                            firstNewer.equals(Instant.MAX) ? "never" : Duration.between(killedAt, firstNewer).toMillis()
                                    + " ms after the kill");
                    assertThat(newerQueued).as("a full queue behind the revived jobs").hasSizeGreaterThanOrEqualTo(10);
                    assertThat(takeOver).as("killed replica's jobs restarted on the survivor").isLessThanOrEqualTo(
                            TAKE_OVER_BOUND);
                    for (String id : heldByB) {
                        assertThat(started.get(id)).as("revived " + id + " restarted before the newer queued jobs")
                                .isBeforeOrEqualTo(firstNewer);
                    }
                    // what the killed replica finished stays finished: nothing it completed ran again
                    for (Map.Entry<String, String[]> row : rows.entrySet()) {
                        if ("replica-b".equals(row.getValue()[2])) {
                            assertThat(Instant.parse(row.getValue()[3])).isBefore(killedAt);
                        }
                    }
                    assertThat(RunRows.count(c, "select count(*) from scheduled_tasks")).isZero();
                    System.out.printf("%d finished on b before the kill%n",
                            rows.values().stream().filter(r -> "replica-b".equals(r[2])).count());
                }
            } finally {
                if (b != null) {
                    b.destroyForcibly();
                }
                a.destroy();
                if (!a.waitFor(30, TimeUnit.SECONDS)) {
                    a.destroyForcibly();
                }
            }
        }
    }

    private static Process start(FreshPostgresDatabase db, String name, int port, Path workDir) throws IOException {
        return ServiceProcesses.startReplica(db, name, port, workDir, List.of(),
                "--schedlab.data-dir=" + workDir.resolve("data"));
    }

    private String submit(int port, String body) throws Exception {
        HttpResponse<String> r = post(port, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        return json.readTree(r.body()).path("id").asString();
    }

    private static boolean holds(Connection c, String replica) throws Exception {
        return RunRows.count(c, "select count(*) from scheduled_tasks where picked and picked_by = '" + replica + "'") > 0;
    }

    private HttpResponse<String> post(int port, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/experiments"))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Time until none of {@code ids} is still picked by a dead process (released or already re-run). */
    private static Duration awaitReleased(Connection c, Set<String> ids, Duration timeout) throws Exception {
        long start = System.nanoTime();
        while (System.nanoTime() - start < timeout.toNanos()) {
            Set<String> stillHeld = RunRows.strings(c, "select task_instance from scheduled_tasks where picked and picked_by"
                    + " = 'replica-b'");
            stillHeld.retainAll(ids);
            if (stillHeld.isEmpty()) {
                return Duration.ofNanos(System.nanoTime() - start);
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the killed replica's jobs were never picked up again");
    }

    /**
     * Experiments not started yet whose runs were submitted after every one of {@code held} (a job a
     * survivor picked ahead and handed back may be older than the held ones: it may start before them).
     */
    private static Set<String> newerQueued(Connection c, Set<String> held) throws Exception {
        // not yet started, whether its job waits in the table or was picked ahead into a replica's worker queue
        Set<String> queued = RunRows.strings(c, "select cast(id as varchar) from experiments where status = 'QUEUED'");
        queued.removeAll(held);
        Map<String, Instant> created = instants(c, "select cast(id as varchar), created_at from experiments");
        Instant newestHeld = held.stream().map(created::get).max(Instant::compareTo).orElseThrow();
        queued.removeIf(id -> !created.get(id).isAfter(newestHeld));
        return queued;
    }

    private static Map<String, Instant> startedAt(Connection c) throws Exception {
        return instants(c, "select cast(id as varchar), started_at from experiments");
    }

    private static Map<String, Instant> instants(Connection c, String sql) throws Exception {
        Map<String, Instant> out = new java.util.HashMap<>();
        try (java.sql.Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                java.sql.Timestamp t = rs.getTimestamp(2);
                out.put(rs.getString(1), t == null ? null : t.toInstant());
            }
        }
        return out;
    }

    private static void awaitAllFinished(Connection c, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (RunRows.count(c, "select count(*) from experiments where status in ('QUEUED', 'RUNNING')") == 0) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("experiments still unfinished after " + timeout);
    }

    /** id -> {status, has result, run_by, finished_at}. */
    private static Map<String, String[]> rows(Connection c) throws Exception {
        return RunRows.runs(c, "select id, status, result is not null, run_by, finished_at from experiments");
    }
}
