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
        // the published 3 min 40 s (220 s) while sharing pCPU 1, beside the variant and metric that fill it
        JsonNode shared = table.at("/definition/published/cells/0");
        assertThat(shared.path("value").asDouble()).isEqualTo(220.0);
        assertThat(shared.path("metric").asString()).isEqualTo("vmHeadline.VM1");
        assertThat(shared.at("/cell/run").asString()).isEqualTo("static, both on pCPU 1");
        assertThat(table.at("/definition/published/reference/row").asString()).isEqualTo("static + vcpu-pin VM1 0 0");
        assertThat(table.path("definition").path("metrics").findValuesAsString("pointer"))
                .contains("/summary/vmHeadline/VM1/value", "/summary/vmHeadline/VM3/value");
        assertThat(table.at("/definition/seeds").toString()).as("seed 001's run, as the command line runs it").isEqualTo("[1]");
        for (JsonNode scenario : all) {
            for (JsonNode t : scenario.path("tables")) {
                String what = scenario.path("name").asString() + ": " + t.path("caption").asString();
                assertThat(t.at("/definition/published/rows")).as(what).isEqualTo(t.path("rows"));
                if (t.has("note")) {
                    // the command line's affinity audit: shown, not run (it traces beyond the service's limits too)
                    assertThat(t.path("note").asString()).contains("audit");
                    continue;
                }
                byte[] definition = json.writeValueAsBytes(t.path("definition"));
                try {
                    assertThat(sweeps.prepare(definition).plan().total()).as(what).isPositive();
                } catch (io.schedlab.engine.sweepgrid.InvalidSweepException e) {
                    throw new AssertionError(what + ": " + e.violations(), e);
                }
            }
        }
        // a mean over guests (E4) and the overhead share (E1) are metrics the service computes too
        JsonNode e4 = json.readTree(get("/api/v1/scenarios/E4").body());
        assertThat(e4.at("/tables/0/definition/metrics/0/meanOf").size()).isGreaterThan(0);
        assertThat(e4.at("/tables/0/definition/seeds").toString()).isEqualTo("[4,5,6]");
        assertThat(json.readTree(get("/api/v1/scenarios/E1").body()).findValuesAsString("computed")).contains("overheadPercent");
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
        assertThat(definition.path("seeds").toString()).as("consecutive from the table's seed").isEqualTo("[1,2]");
        assertThat(definition.at("/axes/0/variants/0/patch/durationSeconds").asDouble()).isEqualTo(30.0);
        // the table, before any child ran: the published shape with the published values and effects
        JsonNode table = json.readTree(get(run.path("sweep").asString() + "/table").body());
        JsonNode first = table.at("/published/cells/0");
        assertThat(table.at("/published/rows/0").asString()).isEqualTo("static, both on pCPU 1");
        assertThat(first.path("column").asString()).isEqualTo("VM1");
        assertThat(first.path("published").asDouble()).isEqualTo(220.0);
        assertThat(first.path("mean").isMissingNode()).as("no mean yet: absent").isTrue();
        assertThat(first.path("publishedEffect").asDouble()).as("220 s shared vs 96 s pinned").isCloseTo(220.0 / 96 - 1,
                org.assertj.core.api.Assertions.within(1e-9));
        assertThat(first.path("band").isMissingNode()).as("the static stand-in shows the published numbers, unscored").isTrue();
        // Xen 3.0's sedf table is the post's set-up: its cells carry the band, pass/fail once children ran
        JsonNode sedfRun = json.readTree(r.body()).path("tables").path(1);
        JsonNode sedf = json.readTree(get(sedfRun.path("sweep").asString() + "/table").body()).at("/published/cells/0");
        assertThat(sedf.at("/band/kind").asString()).isEqualTo("relative");
        assertThat(sedf.at("/band/on").asString()).isEqualTo("effect");
        assertThat(sedf.at("/band/low").asDouble()).as("published effect 220 / 96 - 1, less 25%")
                .isCloseTo((220.0 / 96 - 1) * 0.75, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(sedf.at("/band/source").asString()).contains("seed 001");
        assertThat(sedf.path("pass").isMissingNode()).as("no simulated value yet").isTrue();
        String csv = get(run.path("sweep").asString() + "/table.csv").body();
        assertThat(csv.lines().findFirst().orElseThrow()).endsWith(
                "publishedRow,publishedColumn,published,effect,publishedEffect");
        assertThat(csv).contains("\"static, both on pCPU 1\",VM1,220.0,,1.29");
        HttpResponse<String> bad = http.send(HttpRequest.newBuilder(uri("/api/v1/scenarios/E2/runs"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"repetition\": 2}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(bad.statusCode()).isEqualTo(400);
    }

    @Test
    void oversizedOverridesAre422InMillisecondsNamingTheFieldAndTheLimitAndStoreNothing() throws Exception {
        long sweepsBefore = sweeps.list(0, 1).totalItems();
        post("/api/v1/scenarios/E5/runs", "{\"repetitions\": 0}"); // warm-up: the first request loads classes
        // 2147483647 used to build that many seeds first (OutOfMemoryError, 500 after 11-19 s), and
        // 50000000 to answer its 422 after 51 s: the bound now comes before the expansion
        for (String body : new String[] {"{\"repetitions\": 2147483647}", "{\"repetitions\": 50000000}",
            "{\"repetitions\": 0}", "{\"repetitions\": -2147483648}"}) {
            long start = System.nanoTime();
            HttpResponse<String> r = post("/api/v1/scenarios/E5/runs", body);
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(r.statusCode()).as(body + " -> " + r.body()).isEqualTo(422);
            assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
            JsonNode error = json.readTree(r.body()).path("errors").path(0);
            assertThat(error.path("pointer").asString()).isEqualTo("/repetitions");
            assertThat(error.path("message").asString()).contains("1000", "schedlab.sweeps.max-experiments");
            assertThat(millis).as(body + " answered in ms").isLessThan(1000);
        }
        // within the limit alone, but not times the cells of E5's largest table
        long cells = json.readTree(get("/api/v1/scenarios/E5").body()).path("tables").findValues("definition").stream()
                .mapToLong(d -> {
                    long c = 1;
                    for (JsonNode axis : d.path("axes")) {
                        c *= Math.max(1, axis.has("variants") && !axis.path("variants").isNull()
                                ? axis.path("variants").size() : axis.path("values").size());
                    }
                    return c;
                }).max().orElseThrow();
        assertThat(cells).isGreaterThan(1);
        long tooMany = 1000 / cells + 1;
        HttpResponse<String> product = post("/api/v1/scenarios/E5/runs", "{\"repetitions\": " + tooMany + "}");
        assertThat(product.statusCode()).as(product.body()).isEqualTo(422);
        JsonNode error = json.readTree(product.body()).path("errors").path(0);
        assertThat(error.path("pointer").asString()).isEqualTo("/repetitions");
        assertThat(error.path("message").asString()).contains(cells + " cells", "at most " + (1000 / cells) + " repetitions");
        HttpResponse<String> duration = post("/api/v1/scenarios/E5/runs", "{\"durationSeconds\": 1e300}");
        assertThat(duration.statusCode()).as(duration.body()).isEqualTo(422);
        assertThat(json.readTree(duration.body()).at("/errors/0/pointer").asString()).isEqualTo("/durationSeconds");
        assertThat(json.readTree(duration.body()).at("/errors/0/message").asString()).contains("schedlab.limits.max-duration-seconds");
        assertThat(sweeps.list(0, 1).totalItems()).as("nothing stored").isEqualTo(sweepsBefore);
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
