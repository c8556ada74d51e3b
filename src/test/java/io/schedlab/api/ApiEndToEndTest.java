package io.schedlab.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.io.ClassPathResource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole service over real HTTP on an H2 file database under target/: submit the seed 001
 * example, follow it to SUCCEEDED through the real job queue and engine, and check the engine's
 * numbers in the stored result (both loops share pCPU 1 until the pin at 60 s, then run apart:
 * 30 s + 66 s of work = done at ~126 s).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:file:./target/test-db/api-e2e-${random.uuid};AUTO_SERVER=FALSE",
        "schedlab.data-dir=target/test-data/api-e2e",
        "schedlab.limits.max-body-bytes=65536"})
class ApiEndToEndTest {

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final JsonMapper json = JsonMapper.builder().build();

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    @Test
    void seed001SubmittedOverHttpSucceedsWithTheEnginesNumbers() throws Exception {
        String body = new ClassPathResource("service/seed001-static.json").getContentAsString(StandardCharsets.UTF_8)
                .replace("\"seed\": 1,", "\"labels\": {\"suite\": \"api-e2e\"}, \"seed\": 1,");
        HttpResponse<String> accepted = send(HttpRequest.newBuilder(uri("/api/v1/experiments"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
        assertThat(accepted.statusCode()).isEqualTo(202);
        String location = accepted.headers().firstValue("Location").orElseThrow();
        assertThat(json.readTree(accepted.body()).path("status").asString()).isEqualTo("QUEUED");

        JsonNode done = awaitFinished(location, Duration.ofSeconds(90));
        assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
        assertThat(done.path("progress").asDouble()).isEqualTo(1.0);
        assertThat(done.path("startedAt").isString()).isTrue();
        assertThat(done.path("engineVersion").asString()).isNotBlank();

        JsonNode result = json.readTree(send(HttpRequest.newBuilder(uri(location + "/results")).GET()).body());
        assertThat(result.path("stopReason").asString()).isEqualTo("all-complete");
        assertThat(completion(result, "VM1")).isCloseTo(126.0, within(1.5));
        assertThat(completion(result, "VM3")).isCloseTo(126.0, within(1.5));
        assertThat(result.path("summary").path("migrations").asLong()).isEqualTo(1); // the pin moved VM1 once
        // the summary columns agree with the stored document
        assertThat(done.path("summary").path("events").asLong()).isEqualTo(result.path("summary").path("events").asLong())
                .isPositive();
        assertThat(done.path("summary").path("simulatedSeconds").asDouble())
                .isCloseTo(result.path("summary").path("simulatedSeconds").asDouble(), within(1e-6));

        // the input is kept exactly as sent, and normalized with every default
        JsonNode input = json.readTree(send(HttpRequest.newBuilder(uri(location + "/input")).GET()).body());
        assertThat(input.path("raw").asString()).isEqualTo(body);
        assertThat(input.path("normalized").path("vms").path(1).path("weight").asInt()).isEqualTo(256);

        // finished: cancel is a conflict, listed under its label
        HttpResponse<String> cancel = send(HttpRequest.newBuilder(uri(location + "/cancel"))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(cancel.statusCode()).isEqualTo(409);
        assertThat(cancel.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        JsonNode page = json.readTree(send(HttpRequest.newBuilder(uri("/api/v1/experiments?label="
                + URLEncoder.encode("suite:api-e2e", StandardCharsets.UTF_8) + "&status=succeeded")).GET()).body());
        assertThat(page.path("totalItems").asLong()).isEqualTo(1);
        assertThat(location).endsWith(page.path("items").path(0).path("id").asString());

        String metrics = send(HttpRequest.newBuilder(uri("/actuator/prometheus")).GET()).body();
        assertThat(metrics).containsPattern("schedlab_experiments_submitted_total\\{[^}]*policy=\"static\"[^}]*\\} [1-9]");
    }

    @Test
    void aChunkedBodyOverTheLimitIsStoppedWith413() throws Exception {
        byte[] big = ("{\"name\": \"" + "x".repeat(70_000) + "\"}").getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/api/v1/experiments"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big)))); // no length: chunked
        assertThat(r.statusCode()).isEqualTo(413);
        assertThat(json.readTree(r.body()).path("type").asString())
                .isEqualTo("https://schedlab.io/problems/payload-too-large");

        HttpResponse<String> declared = send(HttpRequest.newBuilder(uri("/api/v1/experiments:validate"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(big)));
        assertThat(declared.statusCode()).isEqualTo(413);
    }

    @Test
    void healthAndApiDocsAreUp() throws Exception {
        assertThat(send(HttpRequest.newBuilder(uri("/actuator/health/readiness")).GET()).statusCode()).isEqualTo(200);
        assertThat(send(HttpRequest.newBuilder(uri("/v3/api-docs")).GET()).body()).contains("/api/v1/experiments");
    }

    private static double completion(JsonNode result, String vm) {
        for (JsonNode v : result.path("vms")) {
            if (v.path("name").asString().equals(vm)) {
                return v.path("completionSeconds").asDouble();
            }
        }
        throw new AssertionError("no VM " + vm + " in result");
    }

    private JsonNode awaitFinished(String location, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode e = json.readTree(send(HttpRequest.newBuilder(uri(location)).GET()).body());
            String status = e.path("status").asString();
            if (status.equals("SUCCEEDED") || status.equals("FAILED") || status.equals("CANCELLED")
                    || System.nanoTime() > deadline) {
                return e;
            }
            Thread.sleep(50);
        }
    }
}
