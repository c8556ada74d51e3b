package io.schedlab.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.io.ClassPathResource;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The service with a keys file: 401 without or with an unknown key, 403 for a reader writing,
 * another submitter's experiment not found (GET, input, results, list, cancel), admins and
 * readers see everything, health public and the Prometheus endpoint behind a key.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:auth;DB_CLOSE_DELAY=-1", "schedlab.jobs.enabled=false"})
class ApiKeyAuthTest {

    static final String READER = "reader-key", ALICE = "alice-key", BOB = "bob-key", ADMIN = "admin-key";

    @DynamicPropertySource
    static void keysFile(DynamicPropertyRegistry registry) throws Exception {
        Path file = Files.createTempFile(Files.createDirectories(Path.of("target")), "api-keys-", ".txt");
        Files.write(file, List.of("# test keys", ApiKeys.sha256Hex(READER) + " reader grafana",
                ApiKeys.sha256Hex(ALICE) + " submitter alice", ApiKeys.sha256Hex(BOB) + " submitter bob",
                ApiKeys.sha256Hex(ADMIN) + " admin ops"));
        registry.add("schedlab.auth.keys-file", file::toString);
    }

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonMapper json = JsonMapper.builder().build();

    private HttpResponse<String> call(String method, String path, String key, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static void assertProblem(HttpResponse<String> r, int status, String kind) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        assertThat(r.body()).contains("https://schedlab.io/problems/" + kind);
    }

    @Test
    void withoutAKnownKeyTheApiIs401() throws Exception {
        HttpResponse<String> none = call("GET", "/api/v1/experiments", null, null);
        assertProblem(none, 401, "unauthorized");
        assertThat(none.headers().firstValue("WWW-Authenticate").orElse("")).startsWith("Bearer");
        assertProblem(call("GET", "/api/v1/schedulers", "wrong", null), 401, "unauthorized");
        assertProblem(call("POST", "/api/v1/experiments", null, "{}"), 401, "unauthorized");
    }

    @Test
    void aReaderReadsButMayNotWrite() throws Exception {
        assertThat(call("GET", "/api/v1/experiments", READER, null).statusCode()).isEqualTo(200);
        assertProblem(call("POST", "/api/v1/experiments", READER, seed()), 403, "forbidden");
        assertProblem(call("POST", "/api/v1/experiments:validate", READER, seed()), 403, "forbidden");
    }

    @Test
    void anotherSubmittersExperimentIsNotFound() throws Exception {
        HttpResponse<String> submitted = call("POST", "/api/v1/experiments", ALICE, seed());
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(202);
        JsonNode created = json.readTree(submitted.body());
        assertThat(created.path("owner").asString()).isEqualTo("alice");
        String self = "/api/v1/experiments/" + created.path("id").asString();

        for (String path : List.of(self, self + "/input", self + "/results", self + "/trace", self + "/events")) {
            assertProblem(call("GET", path, BOB, null), 404, "not-found");
        }
        assertProblem(call("POST", self + "/cancel", BOB, null), 404, "not-found");
        assertProblem(call("DELETE", self, BOB, null), 404, "not-found");
        assertThat(ids(call("GET", "/api/v1/experiments?size=100", BOB, null))).doesNotContain(created.path("id").asString());

        assertThat(call("GET", self, ALICE, null).statusCode()).isEqualTo(200);
        assertThat(ids(call("GET", "/api/v1/experiments?size=100", ALICE, null))).contains(created.path("id").asString());
        assertThat(call("GET", self, READER, null).statusCode()).isEqualTo(200);
        assertThat(ids(call("GET", "/api/v1/experiments?size=100", ADMIN, null))).contains(created.path("id").asString());
        HttpResponse<String> cancelled = call("POST", self + "/cancel", ADMIN, null);
        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(202);
        assertThat(json.readTree(cancelled.body()).path("status").asString()).isEqualTo("CANCELLED");
    }

    @Test
    void aSweepIsItsSubmittersAdminsCancelItReadersReadIt() throws Exception {
        String sweep = "{\"name\": \"owned\", \"seed\": 3, \"repetitions\": 1, \"base\": {\"durationSeconds\": 0.5,"
                + " \"host\": {\"sockets\": 1, \"coresPerSocket\": 2}, \"scheduler\": {\"policy\": \"credit\"},"
                + " \"vms\": [{\"name\": \"a\", \"vcpus\": 1, \"workload\": {\"type\": \"cpu-loop\"}}]},"
                + " \"axes\": [{\"name\": \"vcpus\", \"pointer\": \"/vms/0/vcpus\", \"values\": [1, 2]}],"
                + " \"metrics\": [{\"name\": \"switches\", \"pointer\": \"/summary/contextSwitches\", \"better\": \"lower\"}]}";
        HttpResponse<String> submitted = call("POST", "/api/v1/sweeps", ALICE, sweep);
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(202);
        String id = json.readTree(submitted.body()).path("id").asString();
        String self = "/api/v1/sweeps/" + id;

        assertProblem(call("GET", self, BOB, null), 404, "not-found");
        assertThat(ids(call("GET", "/api/v1/sweeps?size=100", BOB, null))).doesNotContain(id);
        assertThat(ids(call("GET", "/api/v1/sweeps?size=100", ALICE, null))).contains(id);
        assertThat(call("GET", self + "/table", READER, null).statusCode()).isEqualTo(200);
        assertThat(ids(call("GET", "/api/v1/sweeps?size=100", READER, null))).contains(id);
        assertProblem(call("POST", self + "/cancel", READER, null), 403, "forbidden");
        HttpResponse<String> cancelled = call("POST", self + "/cancel", ADMIN, null);
        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(202);
        assertThat(json.readTree(cancelled.body()).path("cancelRequested").asBoolean()).isTrue();
        assertThat(ids(call("GET", "/api/v1/experiments?size=100&label=sweep:" + id, ALICE, null))).hasSize(2);
    }

    @Test
    void healthIsPublicAndPrometheusNeedsAKey() throws Exception {
        assertThat(call("GET", "/actuator/health/liveness", null, null).statusCode()).isEqualTo(200);
        assertProblem(call("GET", "/actuator/prometheus", null, null), 401, "unauthorized");
        HttpResponse<String> scraped = call("GET", "/actuator/prometheus", READER, null);
        assertThat(scraped.statusCode()).isEqualTo(200);
        assertThat(scraped.body()).contains("schedlab_");
        assertThat(call("GET", "/v3/api-docs", null, null).statusCode()).isEqualTo(200);
    }

    private List<String> ids(HttpResponse<String> page) {
        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        return json.readTree(page.body()).path("items").findValuesAsString("id");
    }

    private static String seed() throws Exception {
        return new ClassPathResource("service/seed001-static.json").getContentAsString(StandardCharsets.UTF_8);
    }
}
