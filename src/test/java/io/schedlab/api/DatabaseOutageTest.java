package io.schedlab.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.SchedLabApplication;
import io.schedlab.jobs.support.FreshPostgresDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.ClassPathResource;
import tools.jackson.databind.json.JsonMapper;

/**
 * PostgreSQL going away under a running service and coming back: while the database cannot be
 * reached (every connection reset, new ones refused), submissions and reads answer
 * {@code 503 database-unavailable} problem+json with Retry-After, never a 500 and never a 202, and
 * readiness is DOWN; once it is back the service recovers by itself, without a restart: readiness
 * UP, every submission accepted before the outage runs to SUCCEEDED with its result, no job is
 * left behind, and new submissions are accepted. A network cut, in one process: every open connection reset
 * mid-statement and none refused politely, which a stopped server
 * ({@link PostgresStoppedUnderTwoReplicasTest}) does not do (it ends its sessions with SQLSTATE 57P01 first).
 */
class DatabaseOutageTest {

    private static final Duration OUTAGE = Duration.ofSeconds(20);
    private static FreshPostgresDatabase database;
    private static CuttableProxy proxy;
    private static ConfigurableApplicationContext app;
    private static int port;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final JsonMapper json = JsonMapper.builder().build();

    @BeforeAll
    static void start() throws Exception {
        database = FreshPostgresDatabase.create();
        Matcher m = Pattern.compile("jdbc:postgresql://([^:/]+):(\\d+)/(.*)").matcher(database.url());
        assertThat(m.matches()).as(database.url()).isTrue();
        proxy = new CuttableProxy(m.group(1), Integer.parseInt(m.group(2)));
        String url = "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/" + m.group(3);
        app = new SpringApplicationBuilder(SchedLabApplication.class).run("--server.port=0",
                "--spring.datasource.url=" + url, "--spring.datasource.username=" + database.user(),
                "--spring.datasource.password=" + database.password(), "--schedlab.jobs.workers=2",
                "--schedlab.data-dir=target/test-data/database-outage");
        port = ((WebServerApplicationContext) app).getWebServer().getPort();
    }

    @AfterAll
    static void stop() throws Exception {
        if (proxy != null) {
            proxy.restore();
        }
        FreshPostgresDatabase.closeAfter(app, database);
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void whileTheDatabaseIsAwayTheApiSays503AndAfterwardsEverythingAcceptedRunsOnce() throws Exception {
        List<String> accepted = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> r = send("POST", "/api/v1/experiments", seed());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
            accepted.add(json.readTree(r.body()).path("id").asString());
        }

        proxy.cut();
        long outageEnds = System.nanoTime() + OUTAGE.toNanos();
        List<String> answers = new ArrayList<>();
        boolean sawUnready = false;
        while (System.nanoTime() < outageEnds - Duration.ofSeconds(6).toNanos()) {
            HttpResponse<String> submit = send("POST", "/api/v1/experiments", seed());
            assertUnavailable(submit, "POST during the outage");
            HttpResponse<String> read = send("GET", "/api/v1/experiments/" + accepted.get(0), null);
            assertUnavailable(read, "GET during the outage");
            HttpResponse<String> ready = send("GET", "/actuator/health/readiness", null);
            sawUnready |= ready.statusCode() == 503;
            answers.add(submit.statusCode() + "/" + read.statusCode() + "/" + ready.statusCode());
        }
        assertThat(answers).as("rounds of answers during the outage").isNotEmpty();
        assertThat(sawUnready).as("readiness DOWN during the outage: %s", answers).isTrue();
        Thread.sleep(Math.max(0, (outageEnds - System.nanoTime()) / 1_000_000));
        proxy.restore();

        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (send("GET", "/actuator/health/readiness", null).statusCode() != 200) {
            assertThat(System.nanoTime()).as("readiness UP again within 60 s").isLessThan(deadline);
            Thread.sleep(500);
        }
        HttpResponse<String> after = send("POST", "/api/v1/experiments", seed());
        assertThat(after.statusCode()).as(after.body()).isEqualTo(202);
        accepted.add(json.readTree(after.body()).path("id").asString());

        deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        Map<String, String[]> rows;
        while (true) {
            try (Connection c = DriverManager.getConnection(database.url(), database.user(), database.password())) {
                Map<String, String[]> now = RunRows.runs(c, "select id, status, result is not null, run_by, finished_at from experiments");
                rows = now;
                if (accepted.stream().allMatch(id -> now.containsKey(id) && "SUCCEEDED".equals(now.get(id)[0]))) {
                    assertThat(RunRows.strings(c, "select task_instance from scheduled_tasks"))
                            .as("no job left behind").isEmpty();
                    break;
                }
            }
            assertThat(System.nanoTime()).as("every accepted experiment SUCCEEDED within 120 s").isLessThan(deadline);
            Thread.sleep(500);
        }
        assertThat(rows).as("nothing stored but what was accepted").hasSize(accepted.size());
        for (String id : accepted) {
            assertThat(rows.get(id)[1]).as("result of %s", id).isEqualTo("true");
        }
    }

    private static void assertUnavailable(HttpResponse<String> r, String what) {
        assertThat(r.statusCode()).as("%s: %s", what, r.body()).isEqualTo(503);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        assertThat(r.headers().firstValue("Retry-After")).as(what).isPresent();
        assertThat(r.body()).contains("https://schedlab.io/problems/database-unavailable");
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30));
        if (body != null) {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static String seed() throws Exception {
        return new ClassPathResource("service/seed001-static.json").getContentAsString(StandardCharsets.UTF_8);
    }
}
