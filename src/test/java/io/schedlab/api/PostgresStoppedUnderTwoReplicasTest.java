package io.schedlab.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real PostgreSQL server stopped ({@code pg_ctl stop -m fast}) for 60 s under two service processes while
 * clients keep submitting and reading, and started again. While it is down every answer is {@code 503
 * database-unavailable} problem+json with Retry-After (no 500, no other body, no hang) and both replicas' readiness
 * is DOWN; afterwards both recover by themselves (same processes, readiness UP, submissions accepted), every
 * accepted submission SUCCEEDED, and each ran exactly once: one "simulating experiment" line in the two replicas'
 * logs per experiment, also for the runs that were in progress when the server stopped and finished while it was
 * down (their results waited for the database in their workers, and no replica revived them meanwhile).
 */
class PostgresStoppedUnderTwoReplicasTest {

    private static final Duration OUTAGE = Duration.ofSeconds(60);
    /** Longer than any answer may take while the database is down (a pool wait of 5 s, then 503). */
    private static final Duration HANG = Duration.ofSeconds(20);
    /** Readiness may still say UP for a probe that began before the stop. */
    private static final Duration READINESS_SETTLES = Duration.ofSeconds(10);
    private static final Pattern RUN_LINE = Pattern.compile("simulating experiment ([0-9a-f-]{36}) on ");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final JsonMapper json = JsonMapper.builder().build();
    private final List<Answer> answers = new CopyOnWriteArrayList<>();
    private final List<String> accepted = new CopyOnWriteArrayList<>();
    private final AtomicBoolean clientsOn = new AtomicBoolean(true);

    /** One answer (or none: status -1 and the exception) to a request sent at {@code sentAt} (nano clock). */
    record Answer(String replica, String request, long sentAt, long answeredAt, int status, String contentType,
            boolean retryAfter, String body) {

        boolean isUnavailableProblem() {
            return status == 503 && contentType.startsWith("application/problem+json") && retryAfter
                    && body.contains("https://schedlab.io/problems/database-unavailable");
        }
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES) // about 3 minutes; the default 5 is too tight on a busy machine
    void whileStoppedEveryAnswerIs503AndAfterwardsEveryAcceptedRunEndsOnceWithoutARestart() throws Exception {
        Path workDir = Files.createTempDirectory(Path.of("target"), "postgres-stopped-").toAbsolutePath();
        String body = Files.readString(Path.of("src/test/resources/service/replica-kill.json"));
        try (PrivatePostgresCluster pg = PrivatePostgresCluster.start()) {
            Map<String, Integer> ports = new TreeMap<>(Map.of("replica-a", ServiceProcesses.freePort(),
                    "replica-b", ServiceProcesses.freePort()));
            Map<String, Process> replicas = new TreeMap<>();
            List<Thread> clients = new ArrayList<>();
            try {
                for (Map.Entry<String, Integer> r : ports.entrySet()) {
                    replicas.put(r.getKey(), ServiceProcesses.startReplica(pg.url(), pg.user(), pg.password(),
                            r.getKey(), r.getValue(), workDir, List.of(), "--schedlab.data-dir=" + workDir.resolve("data")));
                }
                for (Map.Entry<String, Integer> r : ports.entrySet()) {
                    // two JVMs starting at once on a busy 2-core machine: more than one alone gets
                    ServiceProcesses.awaitReady(http, r.getValue(), replicas.get(r.getKey()),
                            workDir.resolve(r.getKey() + ".log"), Duration.ofSeconds(240));
                }
                clients.add(client("submitter", () -> {
                    String replica = pick(ports);
                    Answer a = send(replica, ports.get(replica), "POST", "/api/v1/experiments", body);
                    if (a.status() == 202) {
                        accepted.add(json.readTree(a.body()).path("id").asString());
                    }
                    Thread.sleep(600);
                }));
                clients.add(client("reader", () -> {
                    String replica = pick(ports);
                    List<String> ids = List.copyOf(accepted);
                    send(replica, ports.get(replica), "GET", ids.isEmpty() || ThreadLocalRandom.current().nextBoolean()
                            ? "/api/v1/experiments?size=20" : "/api/v1/experiments/" + ids.get(ids.size() - 1), null);
                    Thread.sleep(200);
                }));
                for (Map.Entry<String, Integer> r : ports.entrySet()) {
                    clients.add(client("readiness-" + r.getKey(), () -> {
                        send(r.getKey(), r.getValue(), "GET", "/actuator/health/readiness", null);
                        Thread.sleep(500);
                    }));
                }

                // both replicas in the middle of runs, then a real stop
                Set<String> runningAtStop;
                try (Connection c = DriverManager.getConnection(pg.url(), pg.user(), pg.password())) {
                    runningAtStop = awaitRunsOnBoth(c, Duration.ofSeconds(90));
                }
                pg.stop();
                long stopped = System.nanoTime();
                Thread.sleep(OUTAGE.toMillis());
                long restarting = System.nanoTime();
                pg.startServer();
                long restarted = System.nanoTime();

                // recovery by themselves: readiness UP on both, the same processes, submissions accepted on both
                Map<String, Long> readyAfter = new TreeMap<>();
                for (String replica : ports.keySet()) {
                    readyAfter.put(replica, (awaitAnswer(replica, "GET /actuator/health/readiness", 200, restarted,
                            Duration.ofSeconds(60)) - restarted) / 1_000_000);
                    awaitAnswer(replica, "POST /api/v1/experiments", 202, restarted, Duration.ofSeconds(60));
                }
                clientsOn.set(false);
                for (Thread t : clients) {
                    t.join(HANG.toMillis() + 5_000);
                }
                replicas.forEach((name, p) -> assertThat(p.isAlive()).as(name + " never restarted").isTrue());

                // while it was down: 503 problem+json with Retry-After, and readiness DOWN
                List<Answer> during = answers.stream()
                        .filter(a -> a.sentAt() >= stopped && a.answeredAt() <= restarting).toList();
                List<Answer> api = during.stream().filter(a -> a.request().contains("/api/")).toList();
                assertThat(api.stream().filter(a -> a.request().startsWith("POST")).count())
                        .as("submissions during the outage").isGreaterThanOrEqualTo(5);
                assertThat(api.stream().filter(a -> a.request().startsWith("GET")).count())
                        .as("reads during the outage").isGreaterThanOrEqualTo(5);
                for (Answer a : api) {
                    assertThat(a.isUnavailableProblem() || a.status() / 100 == 2 && a.request().startsWith("GET"))
                            .as("during the outage: %s", a).isTrue();
                }
                for (String replica : ports.keySet()) {
                    List<Answer> readiness = during.stream().filter(a -> a.replica().equals(replica)
                            && a.request().contains("readiness")
                            && a.sentAt() - stopped >= READINESS_SETTLES.toNanos()).toList();
                    assertThat(readiness).as("readiness probes of %s during the outage", replica).hasSizeGreaterThan(3);
                    assertThat(readiness).as("readiness of %s while the database is down", replica)
                            .allMatch(a -> a.status() == 503);
                }
                // at any time: no 500, no HTML, no hang; what is not a success is the database's 503
                for (Answer a : answers) {
                    assertThat(a.status() / 100 == 2 || a.isUnavailableProblem()
                            || a.request().contains("readiness") && a.status() == 503).as("answer %s", a).isTrue();
                }

                // every accepted submission SUCCEEDED, none left queued, each run exactly once
                Map<String, String[]> rows;
                try (Connection c = DriverManager.getConnection(pg.url(), pg.user(), pg.password())) {
                    rows = awaitAllFinished(c, Duration.ofSeconds(180));
                    assertThat(RunRows.count(c, "select count(*) from scheduled_tasks")).as("jobs left").isZero();
                }
                assertThat(rows.keySet()).containsAll(accepted);
                for (Map.Entry<String, String[]> row : rows.entrySet()) {
                    assertThat(row.getValue()[0]).as("status of %s", row.getKey()).isEqualTo("SUCCEEDED");
                    assertThat(row.getValue()[1]).as("result of %s", row.getKey()).isEqualTo("true");
                }
                stopAll(replicas);
                Map<String, Integer> runs = runsPerExperiment(workDir, ports.keySet());
                for (String id : rows.keySet()) {
                    assertThat(runs.getOrDefault(id, 0)).as("engine runs of %s (running at the stop: %s)", id,
                            runningAtStop.contains(id)).isEqualTo(1);
                }
                int waited = linesContaining(workDir, ports.keySet(), "written after the database came back");
                assertThat(waited).as("results that waited in their worker for the database").isPositive();
                System.out.printf("%d accepted, %d stored, %d running at the stop (%d results waited for the"
                        + " database); %d API answers during the %d s outage (all 503 problem+json); readiness UP"
                        + " again after %s ms; max answer time %d ms%n", accepted.size(), rows.size(),
                        runningAtStop.size(), waited, api.size(), OUTAGE.toSeconds(), readyAfter,
                        answers.stream().mapToLong(a -> a.answeredAt() - a.sentAt()).max().orElse(0) / 1_000_000);
            } finally {
                clientsOn.set(false);
                stopAll(replicas);
            }
        }
    }

    /** Waits until experiments are RUNNING on both replicas, and returns every RUNNING one. */
    private static Set<String> awaitRunsOnBoth(Connection c, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Set<String> on = RunRows.strings(c, "select distinct run_by from experiments where status = 'RUNNING'");
            if (on.size() == 2) {
                return RunRows.strings(c, "select cast(id as varchar) from experiments where status = 'RUNNING'");
            }
            Thread.sleep(100);
        }
        throw new AssertionError("never both replicas running experiments");
    }

    /** The nano time of the first answer with {@code status} to {@code request} on {@code replica} sent after {@code from}. */
    private long awaitAnswer(String replica, String request, int status, long from, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (Answer a : answers) {
                if (a.replica().equals(replica) && a.request().startsWith(request) && a.status() == status
                        && a.sentAt() >= from) {
                    return a.answeredAt();
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError(replica + " never answered " + status + " to " + request + " after the restart");
    }

    private static Map<String, String[]> awaitAllFinished(Connection c, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (RunRows.count(c, "select count(*) from experiments where status in ('QUEUED', 'RUNNING')") > 0) {
            assertThat(System.nanoTime()).as("every experiment finished within " + timeout).isLessThan(deadline);
            Thread.sleep(250);
        }
        return RunRows.runs(c, "select id, status, result is not null, run_by, finished_at from experiments");
    }

    /** "simulating experiment ID on" lines of both replicas' logs, per experiment. */
    private static Map<String, Integer> runsPerExperiment(Path workDir, Set<String> replicas) throws Exception {
        Map<String, Integer> runs = new TreeMap<>();
        for (String replica : replicas) {
            for (String line : Files.readAllLines(workDir.resolve(replica + ".log"))) {
                Matcher m = RUN_LINE.matcher(line);
                if (m.find()) {
                    runs.merge(m.group(1), 1, Integer::sum);
                }
            }
        }
        return runs;
    }

    private static int linesContaining(Path workDir, Set<String> replicas, String text) throws Exception {
        int n = 0;
        for (String replica : replicas) {
            n += (int) Files.readAllLines(workDir.resolve(replica + ".log")).stream().filter(l -> l.contains(text))
                    .count();
        }
        return n;
    }

    private static String pick(Map<String, Integer> ports) {
        List<String> names = new ArrayList<>(ports.keySet());
        Collections.shuffle(names, ThreadLocalRandom.current());
        return names.get(0);
    }

    /** Runs {@code step} over and over until the clients are switched off. */
    private Thread client(String name, Step step) {
        Thread t = new Thread(() -> {
            while (clientsOn.get()) {
                try {
                    step.run();
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    throw new IllegalStateException(name, e);
                }
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    /** Sends and records one request; no answer within {@link #HANG} is recorded as status -1. */
    private Answer send(String replica, int port, String method, String path, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(HANG);
        b = body == null ? b.GET() : b.header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        long sent = System.nanoTime();
        Answer a;
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            a = new Answer(replica, method + " " + path, sent, System.nanoTime(), r.statusCode(),
                    r.headers().firstValue("Content-Type").orElse(""), r.headers().firstValue("Retry-After").isPresent(),
                    r.body());
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            a = new Answer(replica, method + " " + path, sent, System.nanoTime(), -1, "", false, e.toString());
        }
        answers.add(a);
        return a;
    }

    private static void stopAll(Map<String, Process> replicas) throws InterruptedException {
        for (Process p : replicas.values()) {
            p.destroy();
        }
        for (Process p : replicas.values()) {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }
}
