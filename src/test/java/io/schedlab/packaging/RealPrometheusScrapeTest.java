package io.schedlab.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.JsonNode;

/**
 * Starts Debian's real {@code prometheus} binary scraping the running application's
 * {@code /actuator/prometheus} on loopback every second, and checks through Prometheus's HTTP
 * query API that SchedLab's metrics arrive and that every dashboard expression is valid PromQL.
 */
class RealPrometheusScrapeTest extends ServiceWithOneFinishedExperiment {

    private static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
    private static final Duration ARRIVAL_BOUND = Duration.ofSeconds(45);

    @TempDir
    static Path workDir;

    /** One Prometheus for both tests (started by the first, stopped after the class). */
    private static Process prometheus;
    private static String prometheusUrl;

    @Test
    void schedLabMetricsArriveInARealPrometheus() throws Exception {
        assumeTrue(Files.isExecutable(PROMETHEUS),
                "skipped: /usr/bin/prometheus is not installed (apt-get install prometheus; .ci/run installs it)");
        startPrometheus();

        JsonNode up = awaitResult("up{job=\"schedlab\"}", r -> r.size() == 1 && "1".equals(value(r.get(0))));
        assertThat(up.get(0).get("metric").get("instance").asString()).isEqualTo("127.0.0.1:" + port);

        // examples/small.json runs the "static" policy; other policies' counters exist at 0.
        JsonNode submitted = awaitResult("schedlab_experiments_submitted_total{policy=\"static\"}", r -> !r.isEmpty());
        assertThat(submitted.get(0).get("metric").get("job").asString()).isEqualTo("schedlab");
        assertThat(Double.parseDouble(value(submitted.get(0)))).isGreaterThanOrEqualTo(1.0);

        // one series per policy, every one from 0 (pre-registered): the static one counts the run
        JsonNode succeeded = awaitResult("sum(schedlab_experiments_finished_total{outcome=\"succeeded\"})",
                r -> !r.isEmpty() && Double.parseDouble(value(r.get(0))) >= 1);
        assertThat(Double.parseDouble(value(succeeded.get(0)))).isGreaterThanOrEqualTo(1.0);

        JsonNode runs = awaitResult("sum(schedlab_run_seconds_count)",
                r -> !r.isEmpty() && Double.parseDouble(value(r.get(0))) >= 1);
        assertThat(Double.parseDouble(value(runs.get(0)))).isGreaterThanOrEqualTo(1.0);
    }

    @Test
    void everyDashboardExpressionIsAcceptedByPrometheus() throws Exception {
        assumeTrue(Files.isExecutable(PROMETHEUS),
                "skipped: /usr/bin/prometheus is not installed (apt-get install prometheus; .ci/run installs it)");
        startPrometheus();
        awaitResult("up{job=\"schedlab\"}", r -> r.size() == 1 && "1".equals(value(r.get(0))));
        List<String> expressions = DashboardQueries.expressions();
        for (String expression : expressions) {
            JsonNode answer = query(DashboardQueries.forPrometheus(expression));
            assertThat(answer.path("status").asString("")).as(expression + " -> " + answer).isEqualTo("success");
        }
    }

    @AfterAll
    static void stopPrometheus() throws InterruptedException {
        if (prometheus != null) {
            prometheus.destroy();
            if (!prometheus.waitFor(10, TimeUnit.SECONDS)) {
                prometheus.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
            prometheus = null;
        }
    }

    private void startPrometheus() throws IOException {
        if (prometheus != null) {
            return;
        }
        int prometheusPort = freePort();
        prometheusUrl = "http://127.0.0.1:" + prometheusPort;
        Path config = workDir.resolve("prometheus.yml");
        Files.writeString(config, String.join("\n",
                "global:",
                "  scrape_interval: 1s",
                "  scrape_timeout: 1s",
                "scrape_configs:",
                "  - job_name: schedlab",
                "    metrics_path: /actuator/prometheus",
                "    static_configs:",
                "      - targets: ['127.0.0.1:" + port + "']",
                ""));
        prometheus = new ProcessBuilder(PROMETHEUS.toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + workDir.resolve("tsdb"),
                "--web.listen-address=127.0.0.1:" + prometheusPort)
                .redirectErrorStream(true)
                .redirectOutput(workDir.resolve("prometheus.log").toFile())
                .start();
    }

    /** Polls an instant query until its result vector satisfies the condition (bounded wait). */
    private JsonNode awaitResult(String promql, Predicate<JsonNode> condition) throws Exception {
        long deadline = System.nanoTime() + ARRIVAL_BOUND.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            if (!prometheus.isAlive()) {
                fail("prometheus exited with %d: %s", prometheus.exitValue(), log());
            }
            try {
                last = query(promql);
                JsonNode result = last.path("data").path("result");
                if ("success".equals(last.path("status").asString("")) && condition.test(result)) {
                    return result;
                }
            } catch (IOException notListeningYet) {
                last = null;
            }
            Thread.sleep(250);
        }
        return fail("no matching result for %s within %s; last answer %s; prometheus log:%n%s", promql, ARRIVAL_BOUND, last, log());
    }

    private JsonNode query(String promql) throws Exception {
        URI uri = URI.create(prometheusUrl + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).GET().build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 503) { // still starting: its API answers "Service Unavailable" in plain text
            throw new IOException("prometheus not ready: " + response.body());
        }
        return JSON.readTree(response.body());
    }

    private static String value(JsonNode sample) {
        return sample.get("value").get(1).asString();
    }

    private static String log() {
        try {
            List<String> lines = Files.readAllLines(workDir.resolve("prometheus.log"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }
}
