package io.schedlab.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole application on a random port over a temporary H2 file database, with one small
 * experiment ({@code examples/small.json}) submitted through the API and run to the end, so that
 * every counter, timer and summary SchedLab exports has at least one sample. Subclasses share
 * one Spring context (same configuration) and the one experiment.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
abstract class ServiceWithOneFinishedExperiment {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Path WORK_DIR = temporaryDirectory();
    private static final Set<String> TERMINAL = Set.of("SUCCEEDED", "FAILED", "CANCELLED");
    private static final Duration RUN_BOUND = Duration.ofSeconds(30);

    private static String finishedExperimentId;

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void temporaryStorage(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url",
                () -> "jdbc:h2:file:" + WORK_DIR.resolve("db/schedlab") + ";AUTO_SERVER=FALSE");
        registry.add("schedlab.data-dir", WORK_DIR::toString);
        registry.add("management.defaults.metrics.export.enabled", () -> "true");
    }

    @BeforeEach
    void runOneExperimentOnce() throws Exception {
        synchronized (ServiceWithOneFinishedExperiment.class) {
            if (finishedExperimentId == null) {
                finishedExperimentId = submitAndAwait(RepoFiles.read("examples/small.json"));
            }
        }
    }

    String finishedExperimentId() {
        return finishedExperimentId;
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** The application's Prometheus exposition text. */
    String scrape() throws Exception {
        HttpResponse<String> response = get("/actuator/prometheus");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }

    HttpResponse<String> get(String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl() + path)).timeout(Duration.ofSeconds(10)).GET().build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private String submitAndAwait(String experimentJson) throws Exception {
        HttpRequest submit = HttpRequest.newBuilder(URI.create(baseUrl() + "/api/v1/experiments"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(experimentJson))
                .build();
        HttpResponse<String> accepted = HTTP.send(submit, HttpResponse.BodyHandlers.ofString());
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        String id = JSON.readTree(accepted.body()).get("id").asString();

        long deadline = System.nanoTime() + RUN_BOUND.toNanos();
        JsonNode experiment = null;
        while (System.nanoTime() < deadline) {
            experiment = JSON.readTree(get("/api/v1/experiments/" + id).body());
            if (TERMINAL.contains(experiment.path("status").asString(""))) {
                break;
            }
            Thread.sleep(100);
        }
        assertThat(experiment).isNotNull();
        assertThat(experiment.path("status").asString("")).as("experiment %s: %s", id, experiment).isEqualTo("SUCCEEDED");
        return id;
    }

    private static Path temporaryDirectory() {
        try {
            Path dir = Files.createTempDirectory("schedlab-packaging-");
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
