package io.schedlab.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.SchedLabApplication;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The embedded default keeps what it accepted: a service process started as a user starts it
 * (default H2 file URL under ./data, in a fresh working directory) answers 202 to a burst of
 * submissions and is then killed with SIGKILL at once; every accepted experiment and its job are in
 * the database file afterwards. Workers are off so the jobs stay queued.
 */
class SubmissionSurvivesAKillTest {

    private static final int SUBMISSIONS = 20;

    @Test
    void everySubmissionAnswered202IsInTheDatabaseFileAfterAKill() throws Exception {
        Path workDir = Files.createTempDirectory(Path.of("target"), "kill-test-").toAbsolutePath();
        int port = ServiceProcesses.freePort();
        Process app = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), SchedLabApplication.class.getName(), "--server.port=" + port,
                "--schedlab.jobs.enabled=false")
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(workDir.resolve("app.log").toFile())
                .start();
        List<String> accepted = new ArrayList<>();
        try {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            ServiceProcesses.awaitReady(http, port, app, workDir.resolve("app.log"));
            String body = Files.readString(Path.of("examples/small.json"));
            for (int i = 0; i < SUBMISSIONS; i++) {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/api/v1/experiments"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
                String location = response.headers().firstValue("Location").orElseThrow();
                accepted.add(location.substring(location.lastIndexOf('/') + 1));
            }
        } finally {
            app.destroyForcibly(); // SIGKILL: no shutdown hook, no close of the database
            app.waitFor(30, TimeUnit.SECONDS);
        }

        try (Connection db = DriverManager.getConnection(
                "jdbc:h2:file:" + workDir.resolve("data/schedlab") + ";AUTO_SERVER=FALSE", "sa", "")) {
            for (String id : accepted) {
                assertThat(count(db, "select count(*) from experiments where id = cast(? as uuid)", id))
                        .as("experiment " + id).isEqualTo(1);
                assertThat(count(db, "select count(*) from scheduled_tasks where task_instance = ?", id))
                        .as("job of " + id).isEqualTo(1);
            }
        }
        assertThat(accepted).hasSize(SUBMISSIONS);
    }

    private static long count(Connection db, String sql, String id) throws Exception {
        try (PreparedStatement ps = db.prepareStatement(sql)) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
