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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole service over real HTTP on an H2 file database under target/: submit the seed 001
 * examples from examples/ (static placement, and the same with {@code xm vcpu-pin VM1 0 0} at
 * 10 s), follow them to SUCCEEDED through the real job queue and engine, and check the engine's
 * numbers in the stored results.
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
    void seed001ExamplesSubmittedOverHttpSucceedWithTheEnginesNumbers() throws Exception {
        String staticBody = Files.readString(Path.of("examples/seed-001-static.json"));
        String pinBody = Files.readString(Path.of("examples/seed-001-pin.json"));
        String staticLocation = submit(staticBody);
        String pinLocation = submit(pinBody);

        JsonNode staticDone = awaitFinished(staticLocation, Duration.ofSeconds(120));
        JsonNode pinDone = awaitFinished(pinLocation, Duration.ofSeconds(120));
        for (JsonNode done : List.of(staticDone, pinDone)) {
            assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
            assertThat(done.path("progress").asDouble()).isEqualTo(1.0);
            assertThat(done.path("startedAt").isString()).isTrue();
            assertThat(done.path("finishedAt").isString()).isTrue();
            assertThat(done.path("engineVersion").asString()).isNotBlank();
        }

        // static placement: VM1 and VM3 share pCPU 1 all along, 2 x 96 s of work on one pCPU, plus the refill
        // of the 1 MiB cache at the start of each 30 ms slice (the other VM evicted it: ~0.1 ms) and dom0's 1%
        JsonNode shared = results(staticLocation);
        assertThat(shared.path("stopReason").asString()).isEqualTo("all-complete");
        assertThat(completion(shared, "VM1")).isBetween(2 * 96 * 1.001, 2 * 96 * 1.03);
        assertThat(completion(shared, "VM3")).isBetween(2 * 96 * 1.001, 2 * 96 * 1.03);
        assertThat(shared.path("summary").path("migrations").asLong()).isZero();
        // xm vcpu-pin VM1 0 0 at 10 s: ~5 s of work each by then, the remaining ~91 s apart: done at ~102 s
        JsonNode pinned = results(pinLocation);
        assertThat(completion(pinned, "VM1")).isCloseTo(102.0, within(1.5));
        assertThat(completion(pinned, "VM3")).isCloseTo(102.0, within(1.5));
        assertThat(pinned.path("summary").path("migrations").asLong()).isEqualTo(1); // the pin moved VM1 once
        assertThat(completion(shared, "VM1") / completion(pinned, "VM1")).isGreaterThan(1.8); // published: 2.3x

        // the summary columns agree with the stored document
        assertThat(staticDone.path("summary").path("events").asLong())
                .isEqualTo(shared.path("summary").path("events").asLong()).isPositive();
        assertThat(staticDone.path("summary").path("simulatedNanos").asLong())
                .isEqualTo(shared.path("summary").path("simulatedNanos").asLong());
        assertThat(staticDone.path("summary").path("contextSwitches").asLong())
                .isEqualTo(shared.path("summary").path("contextSwitches").asLong());

        // the input is kept exactly as sent, and normalized with every default
        JsonNode input = json.readTree(send(HttpRequest.newBuilder(uri(staticLocation + "/input")).GET()).body());
        assertThat(input.path("raw").asString()).isEqualTo(staticBody);
        assertThat(input.path("normalized").path("vms").path(1).path("weight").asInt()).isEqualTo(256);

        // finished: cancel is a conflict; both listed under their label, newest first
        HttpResponse<String> cancel = send(HttpRequest.newBuilder(uri(staticLocation + "/cancel"))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(cancel.statusCode()).isEqualTo(409);
        assertThat(cancel.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        JsonNode page = json.readTree(send(HttpRequest.newBuilder(uri("/api/v1/experiments?label="
                + URLEncoder.encode("seed:001", StandardCharsets.UTF_8) + "&status=succeeded")).GET()).body());
        assertThat(page.path("totalItems").asLong()).isEqualTo(2);
        assertThat(pinLocation).endsWith(page.path("items").path(0).path("id").asString());

        String metrics = send(HttpRequest.newBuilder(uri("/actuator/prometheus")).GET()).body();
        assertThat(metrics).containsPattern("schedlab_experiments_submitted_total\\{[^}]*policy=\"static\"[^}]*\\} [2-9]");
    }

    private String submit(String body) throws Exception {
        HttpResponse<String> accepted = send(HttpRequest.newBuilder(uri("/api/v1/experiments"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        assertThat(json.readTree(accepted.body()).path("status").asString()).isEqualTo("QUEUED");
        return accepted.headers().firstValue("Location").orElseThrow();
    }

    private JsonNode results(String location) throws Exception {
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri(location + "/results")).GET());
        assertThat(r.statusCode()).isEqualTo(200);
        return json.readTree(r.body());
    }

    /** 64 labels with keys and values of {@code total} characters: "t" = "a,b" and 63 of quotes and backslashes. */
    private String smallWithLabels(int total) throws Exception {
        tools.jackson.databind.node.ObjectNode body = (tools.jackson.databind.node.ObjectNode) json.readTree(
                Files.readString(Path.of("examples/small.json")));
        tools.jackson.databind.node.ObjectNode labels = body.putObject("labels");
        labels.put("t", "a,b");
        int valueChars = total - 4 - 63 * 4;
        for (int i = 0; i < 63; i++) {
            int n = valueChars / 63 + (i == 0 ? valueChars % 63 : 0);
            labels.put(String.format("k%03d", i), "\"\\".repeat(n / 2) + (n % 2 == 1 ? "\"" : ""));
        }
        return json.writeValueAsString(body);
    }

    @Test
    void labelsAtTheTotalLengthBoundAreStoredAndFilterableAndOneMoreCharacterIs422() throws Exception {
        String body = smallWithLabels(4096);
        String location = submit(body);

        JsonNode stored = json.readTree(send(HttpRequest.newBuilder(uri(location)).GET()).body());
        assertThat(stored.path("labels")).isEqualTo(json.readTree(body).path("labels"));
        JsonNode page = json.readTree(send(HttpRequest.newBuilder(uri("/api/v1/experiments?label="
                + URLEncoder.encode("t:a,b", StandardCharsets.UTF_8) + "&label="
                + URLEncoder.encode("k062:" + "\"\\".repeat(30), StandardCharsets.UTF_8))).GET()).body());
        assertThat(page.path("items").findValuesAsString("id")).containsExactly(stored.path("id").asString());

        HttpResponse<String> over = send(HttpRequest.newBuilder(uri("/api/v1/experiments"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(smallWithLabels(4097))));
        assertThat(over.statusCode()).as(over.body()).isEqualTo(422);
        assertThat(json.readTree(over.body()).path("errors").findValuesAsString("pointer")).contains("/labels");
    }

    @Test
    void progressIsStreamedAsServerSentEventsUntilFinished() throws Exception {
        String location = submit(Files.readString(Path.of("examples/small.json")));
        HttpResponse<java.util.stream.Stream<String>> stream = http.send(HttpRequest.newBuilder(uri(location + "/events"))
                .header("Accept", "text/event-stream").timeout(Duration.ofSeconds(60)).GET().build(),
                HttpResponse.BodyHandlers.ofLines());
        assertThat(stream.statusCode()).isEqualTo(200);
        List<String> data = stream.body().filter(l -> l.startsWith("data:")).toList(); // ends when the server completes
        assertThat(data).isNotEmpty();
        JsonNode last = json.readTree(data.get(data.size() - 1).substring("data:".length()));
        assertThat(last.path("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(last.path("summary").path("events").asLong()).isPositive();
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
    void catalogListsTheEngineRegistryWithParameters() throws Exception {
        JsonNode schedulers = json.readTree(send(HttpRequest.newBuilder(uri("/api/v1/schedulers")).GET()).body());
        JsonNode staticPolicy = find(schedulers, "name", "static");
        assertThat(staticPolicy.path("description").asString()).isNotBlank();
        JsonNode slice = find(staticPolicy.path("parameters"), "name", "sliceMs");
        assertThat(slice.path("type").asString()).isEqualTo("integer");
        assertThat(slice.path("defaultValue").asInt()).isEqualTo(30);
        assertThat(slice.path("unit").asString()).isEqualTo("ms");
        assertThat(slice.path("source").asString()).contains("credit.c");
        assertThat(find(schedulers, "name", "null").isMissingNode()).isFalse();

        JsonNode workloads = json.readTree(send(HttpRequest.newBuilder(uri("/api/v1/workloads")).GET()).body());
        JsonNode loop = find(workloads, "type", "cpu-loop");
        assertThat(find(loop.path("parameters"), "name", "workSeconds").path("unit").asString()).isNotBlank();
    }

    private static JsonNode find(JsonNode array, String field, String value) {
        for (JsonNode n : array) {
            if (n.path(field).asString().equals(value)) {
                return n;
            }
        }
        throw new AssertionError("no " + field + "=" + value + " in " + array);
    }

    @Test
    void healthAndApiDocsAreUp() throws Exception {
        HttpResponse<String> readiness = send(HttpRequest.newBuilder(uri("/actuator/health/readiness")).GET());
        assertThat(readiness.statusCode()).isEqualTo(200);
        assertThat(json.readTree(readiness.body()).path("components").path("db").path("status").asString())
                .as("readiness includes the database").isEqualTo("UP");
        assertThat(send(HttpRequest.newBuilder(uri("/v3/api-docs")).GET()).body()).contains("/api/v1/experiments");
    }

    private static double completion(JsonNode result, String vm) {
        for (JsonNode v : result.path("vms")) {
            if (v.path("name").asString().equals(vm)) {
                return v.path("completionNanos").asLong() / 1e9;
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
