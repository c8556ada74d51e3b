package io.schedlab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.sweeps.SweepService;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** E1..E5 over the API: listed with published numbers; every table's definition is a valid sweep; a run starts sweeps. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:file:./target/test-db/scenarios-${random.uuid};AUTO_SERVER=FALSE",
        "schedlab.data-dir=target/test-data/scenarios", "schedlab.jobs.enabled=false"})
class ScenarioApiTest {

    @LocalServerPort
    int port;
    @Autowired
    SweepService sweeps;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void everyScenarioIsListedAndEachTableIsASweepThatValidates() throws Exception {
        JsonNode all = json.readTree(get("/api/v1/scenarios").body());
        assertThat(all.findValuesAsString("name")).containsSubsequence("E1", "E2", "E3", "E4", "E5");
        JsonNode e2 = json.readTree(get("/api/v1/scenarios/e2").body());
        assertThat(e2.path("title").asString()).contains("seed 001");
        JsonNode table = e2.path("tables").path(0);
        assertThat(table.path("rows").size()).isEqualTo(4);
        // the published 3 min 40 s (220 s) while sharing pCPU 1, beside the cell that the sweep fills
        JsonNode shared = table.path("cells").path(0);
        assertThat(shared.path("published").asDouble()).isEqualTo(220.0);
        assertThat(shared.path("metric").asString()).isEqualTo("vmHeadline.VM1");
        assertThat(table.path("definition").path("metrics").findValuesAsString("pointer"))
                .contains("/summary/vmHeadline/VM1/value", "/summary/vmHeadline/VM3/value");
        for (JsonNode scenario : all) {
            for (JsonNode t : scenario.path("tables")) {
                if (t.path("definition").isNull()) {
                    assertThat(t.path("note").asString()).contains("audit");
                    continue;
                }
                byte[] definition = json.writeValueAsBytes(t.path("definition"));
                String what = scenario.path("name").asString() + ": " + t.path("caption").asString();
                try {
                    assertThat(sweeps.prepare(definition).plan().total()).as(what).isPositive();
                } catch (io.schedlab.engine.sweeps.InvalidSweepException e) {
                    // a policy of another build (e.g. gedf) is the one acceptable problem: named, not stored
                    assertThat(e.violations()).as(what).allSatisfy(v -> {
                        assertThat(v.pointer()).isEqualTo("/base/scheduler/policy");
                        assertThat(v.message()).startsWith("unknown policy");
                    });
                }
            }
        }
        assertThat(get("/api/v1/scenarios/E9").statusCode()).isEqualTo(404);
    }

    @Test
    void aRunStartsOneSweepPerTableWithTheOverrides() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri("/api/v1/scenarios/E2/runs"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"repetitions\": 2, \"durationSeconds\": 30}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        JsonNode run = json.readTree(r.body()).path("tables").path(0);
        assertThat(run.path("total").asInt()).isEqualTo(8); // 4 rows x 2 repetitions
        JsonNode definition = json.readTree(get(run.path("sweep").asString() + "/definition").body());
        assertThat(definition.path("repetitions").asInt()).isEqualTo(2);
        assertThat(definition.at("/axes/0/variants/0/patch/durationSeconds").asDouble()).isEqualTo(30.0);
        HttpResponse<String> bad = http.send(HttpRequest.newBuilder(uri("/api/v1/scenarios/E2/runs"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"repetition\": 2}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(bad.statusCode()).isEqualTo(400);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
