package io.schedlab.sweeps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sweeps over real HTTP with the real job queue and engine on an H2 file database: a 2 x 2 sweep
 * with 2 repetitions runs as 8 ordinary child experiments, its table agrees with the children's
 * own results, the CSV is tidy; an invalid cell stores nothing; cancelling stops every child.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:file:./target/test-db/sweeps-${random.uuid};AUTO_SERVER=FALSE",
        "schedlab.data-dir=target/test-data/sweeps", "schedlab.jobs.workers=2", "schedlab.sweeps.max-experiments=40"})
class SweepApiTest {

    static final String BASE = "{\"name\": \"three loops\", \"durationSeconds\": 0.5,"
            + " \"host\": {\"sockets\": 1, \"coresPerSocket\": 2}, \"scheduler\": {\"policy\": \"credit\"},"
            + " \"vms\": [{\"name\": \"a\", \"vcpus\": 1, \"workload\": {\"type\": \"cpu-loop\"}},"
            + " {\"name\": \"b\", \"vcpus\": 1, \"workload\": {\"type\": \"cpu-loop\"}},"
            + " {\"name\": \"c\", \"vcpus\": 2, \"workload\": {\"type\": \"cpu-loop\"}}]}";
    static final String METRICS = "[{\"name\": \"switches\", \"pointer\": \"/summary/contextSwitches\", \"better\": \"lower\"},"
            + " {\"name\": \"fairness\", \"pointer\": \"/summary/jainIndex\", \"better\": \"higher\"}]";

    @LocalServerPort
    int port;
    @Autowired
    SweepService sweeps;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void sweepRunsItsCellsAsChildExperimentsAndTabulatesTheirResults() throws Exception {
        String body = "{\"name\": \"policy x vcpus\", \"seed\": 11, \"repetitions\": 2, \"base\": " + BASE + ","
                + " \"axes\": [{\"name\": \"policy\", \"variants\": [{\"name\": \"credit\", \"patch\": {}},"
                + " {\"name\": \"credit2\", \"patch\": {\"scheduler\": {\"policy\": \"credit2\"}}}]},"
                + " {\"name\": \"cvcpus\", \"pointer\": \"/vms/2/vcpus\", \"values\": [1, 2]}],"
                + " \"metrics\": " + METRICS + ", \"baseline\": {\"policy\": \"credit\", \"cvcpus\": \"2\"}}";
        HttpResponse<String> accepted = post("/api/v1/sweeps", body);
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        JsonNode sweep = json.readTree(accepted.body());
        assertThat(sweep.path("total").asInt()).isEqualTo(8);
        assertThat(sweep.path("table").isMissingNode()).as("no table yet: absent").isTrue();
        String location = accepted.headers().firstValue("Location").orElseThrow();
        assertThat(location).isEqualTo("/api/v1/sweeps/" + sweep.path("id").asString());

        JsonNode done = await(location);
        assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
        assertThat(done.path("done").asInt()).isEqualTo(8);
        assertThat(done.path("progress").asDouble()).isEqualTo(1.0);
        assertThat(done.path("finishedAt").isString()).isTrue();

        // the children are ordinary experiments, listed under their sweep's label
        JsonNode children = get(done.path("links").path("experiments").asString());
        assertThat(children.path("totalItems").asInt()).isEqualTo(8);
        Map<String, List<Double>> switches = new HashMap<>();
        Map<String, Set<Long>> seedsPerCell = new HashMap<>();
        Set<Long> seeds = new HashSet<>();
        for (JsonNode child : children.path("items")) {
            String self = child.path("links").path("self").asString();
            assertThat(child.path("status").asString()).isEqualTo("SUCCEEDED");
            String cell = child.path("labels").path("sweep-cell").asString();
            JsonNode input = get(self + "/input").path("normalized");
            long seed = input.path("seed").asLong();
            seeds.add(seed);
            seedsPerCell.computeIfAbsent(cell, c -> new HashSet<>()).add(seed);
            String policy = input.path("scheduler").path("policy").asString();
            int cvcpus = input.path("vms").path(2).path("vcpus").asInt();
            assertThat(child.path("name").asString()).contains("policy=" + policy + ", cvcpus=" + cvcpus);
            switches.computeIfAbsent(policy + "/" + cvcpus, k -> new ArrayList<>())
                    .add(get(self + "/results").path("summary").path("contextSwitches").asDouble());
        }
        assertThat(seedsPerCell).hasSize(4).allSatisfy((cell, s) -> assertThat(s).hasSize(2));
        assertThat(seeds).as("repetition r has the same seed in every cell").hasSize(2);

        JsonNode table = done.path("table");
        assertThat(table.path("complete").asBoolean()).isTrue();
        assertThat(table.path("baselineKey").asString()).isEqualTo("policy=credit, cvcpus=2");
        assertThat(table.path("rows")).hasSize(8);
        double baselineMean = mean(switches.get("credit/2"));
        for (JsonNode row : table.path("rows")) {
            if (!row.path("metric").asString().equals("switches")) {
                continue;
            }
            List<Double> values = switches.get(row.path("levels").path("policy").asString() + "/"
                    + row.path("levels").path("cvcpus").asString());
            SummaryStatistics s = new SummaryStatistics();
            values.forEach(s::addValue);
            assertThat(row.path("n").asInt()).isEqualTo(2);
            assertThat(row.path("mean").asDouble()).isCloseTo(s.getMean(), within(1e-9));
            assertThat(row.path("min").asDouble()).isEqualTo(s.getMin());
            assertThat(row.path("max").asDouble()).isEqualTo(s.getMax());
            assertThat(row.path("sd").asDouble()).isCloseTo(s.getStandardDeviation(), within(1e-9));
            assertThat(row.path("deltaPercent").asDouble())
                    .isCloseTo(100 * (s.getMean() - baselineMean) / baselineMean, within(1e-9));
            assertThat(row.path("improvementPercent").asDouble()).isCloseTo(-row.path("deltaPercent").asDouble(),
                    within(1e-9));
        }

        // the same table as tidy CSV, an operation of its own; the JSON one answers JSON only
        String csv = send(HttpRequest.newBuilder(uri(location + "/table.csv")).GET());
        assertThat(csv).doesNotContain("\r");
        assertThat(http.send(HttpRequest.newBuilder(uri(location + "/table")).header("Accept", "text/csv").GET().build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(406);
        try (CSVParser parser = CSVParser.parse(new StringReader(csv), CSVFormat.RFC4180.builder().setHeader().get())) {
            assertThat(parser.getHeaderNames()).startsWith("cell", "cellKey", "policy", "cvcpus", "metric", "pointer",
                    "unit");
            List<CSVRecord> rows = parser.getRecords();
            assertThat(rows).hasSize(8);
            for (int i = 0; i < rows.size(); i++) {
                assertThat(Double.parseDouble(rows.get(i).get("mean")))
                        .isEqualTo(table.path("rows").path(i).path("mean").asDouble());
            }
        }
        assertThat(get(location + "/definition").path("name").asString()).isEqualTo("policy x vcpus");
        JsonNode listed = get("/api/v1/sweeps");
        assertThat(listed.path("items").findValuesAsString("id")).contains(sweep.path("id").asString());
        HttpResponse<String> again = postRaw(location + "/cancel", "");
        assertThat(again.statusCode()).isEqualTo(409);
    }

    @Test
    void theExampleSweepExpandsToValidExperiments() throws Exception {
        SweepService.Prepared p = sweeps.prepare(Files.readAllBytes(Path.of("examples/sweeps/credit-vs-credit2.json")));
        assertThat(p.plan().total()).isEqualTo(12);
        assertThat(p.children()).hasSize(12);
        assertThat(p.plan().baselineCell()).isEqualTo(1);
        SweepService.Prepared numbering = sweeps.prepare(
                Files.readAllBytes(Path.of("examples/sweeps/e5-thread-numbering.json")));
        assertThat(numbering.plan().total()).isEqualTo(4); // 2 run queues x 2 numberings, E5's seed
        assertThat(numbering.plan().baselineCell()).isZero();
        // its metrics read the children's results; per-socket is slower only with siblings numbered together
        io.schedlab.engine.Engine engine = io.schedlab.engine.Engine.standard();
        List<Double> seconds = new ArrayList<>();
        for (var child : numbering.children()) {
            JsonNode result = json.valueToTree(engine.run(child.normalized(), io.schedlab.engine.spec.Limits.defaults(),
                    io.schedlab.engine.run.RunControl.NONE));
            for (var metric : numbering.plan().definition().metrics()) {
                assertThat(metric.read(result)).as(metric.name()).isNotNull();
            }
            seconds.add(numbering.plan().definition().metrics().get(0).read(result));
        }
        // cells: (core, adjacent), (core, cores-first), (socket, adjacent), (socket, cores-first)
        assertThat(seconds.get(2)).isGreaterThan(seconds.get(0) * 1.1);
        assertThat(seconds.get(3)).isCloseTo(seconds.get(1), within(seconds.get(1) * 0.02));
    }

    @Test
    void anInvalidCellIsNamedAndNothingIsStored() throws Exception {
        long experimentsBefore = get("/api/v1/experiments").path("totalItems").asLong();
        long sweepsBefore = get("/api/v1/sweeps").path("totalItems").asLong();
        String body = "{\"base\": " + BASE + ", \"axes\": [{\"name\": \"policy\", \"pointer\": \"/scheduler/policy\","
                + " \"values\": [\"credit\", \"credit3\"]}], \"metrics\": " + METRICS + "}";
        HttpResponse<String> rejected = post("/api/v1/sweeps", body);
        assertThat(rejected.statusCode()).as(rejected.body()).isEqualTo(422);
        assertThat(rejected.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        JsonNode problem = json.readTree(rejected.body());
        assertThat(problem.path("type").asString()).isEqualTo("https://schedlab.io/problems/invalid-sweep");
        JsonNode error = problem.path("errors").path(0);
        assertThat(error.path("cell").asString()).isEqualTo("policy=credit3");
        assertThat(error.path("cellIndex").asInt()).isEqualTo(1);
        assertThat(error.path("pointer").asString()).isEqualTo("/base/scheduler/policy");
        assertThat(error.path("experimentPointer").asString()).isEqualTo("/scheduler/policy");
        assertThat(error.path("message").asString()).contains("credit3");

        HttpResponse<String> tooBig = post("/api/v1/sweeps", "{\"base\": " + BASE + ", \"repetitions\": 41,"
                + " \"metrics\": " + METRICS + "}");
        assertThat(tooBig.statusCode()).isEqualTo(422);
        assertThat(json.readTree(tooBig.body()).path("errors").path(0).path("pointer").asString()).isEqualTo("/repetitions");
        HttpResponse<String> malformed = post("/api/v1/sweeps", "{\"base\": " + BASE + ", \"axis\": []}");
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(json.readTree(malformed.body()).path("errors").path(0).path("pointer").asString()).isEqualTo("/axis");

        assertThat(get("/api/v1/experiments").path("totalItems").asLong()).isEqualTo(experimentsBefore);
        assertThat(get("/api/v1/sweeps").path("totalItems").asLong()).isEqualTo(sweepsBefore);
        HttpResponse<String> missing = http.send(HttpRequest.newBuilder(uri("/api/v1/sweeps/" + java.util.UUID.randomUUID()))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(missing.statusCode()).isEqualTo(404);
    }

    @Test
    void aTypoInTheBaseIsReportedOnceForEveryCellWithItsIndex() throws Exception {
        String base = BASE.replace("{\"name\": \"b\", \"vcpus\": 1,", "{\"name\": \"b\", \"vcpus\": 1, \"wieght\": 5,");
        String body = "{\"base\": " + base + ", \"repetitions\": 3, \"axes\": [{\"name\": \"duration\","
                + " \"pointer\": \"/durationSeconds\", \"values\": [0.5, 0.6, 0.7]}], \"metrics\": " + METRICS + "}";
        HttpResponse<String> rejected = post("/api/v1/sweeps", body);
        assertThat(rejected.statusCode()).as(rejected.body()).isEqualTo(422);
        List<String> reported = new ArrayList<>();
        json.readTree(rejected.body()).path("errors").forEach(e -> reported.add(e.path("cellIndex").asInt() + " "
                + e.path("pointer").asString()));
        assertThat(reported).as(rejected.body())
                .containsExactly("0 /base/vms/1/wieght", "1 /base/vms/1/wieght", "2 /base/vms/1/wieght");
    }

    @Test
    void cancellingASweepCancelsEveryChild() throws Exception {
        // an interactive VM beside a CPU hog for the longest simulated hour: seconds of wall time per child
        String longBase = "{\"durationSeconds\": 3600, \"stopWhen\": \"duration\", \"host\": {\"sockets\": 1,"
                + " \"coresPerSocket\": 2}, \"scheduler\": {\"policy\": \"credit2\"}, \"vms\": [{\"name\": \"desktop\","
                + " \"vcpus\": 1, \"workload\": {\"type\": \"interactive\", \"params\": {\"threads\": 2}}},"
                + " {\"name\": \"batch\", \"vcpus\": 2, \"workload\": {\"type\": \"cpu-loop\", \"params\": {\"threads\": 2}}}]}";
        HttpResponse<String> accepted = post("/api/v1/sweeps", "{\"base\": " + longBase + ", \"repetitions\": 6,"
                + " \"metrics\": " + METRICS + "}");
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        String location = accepted.headers().firstValue("Location").orElseThrow();
        HttpResponse<String> cancelled = postRaw(location + "/cancel", "");
        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(202);
        assertThat(json.readTree(cancelled.body()).path("cancelRequested").asBoolean()).isTrue();
        JsonNode done = await(location);
        assertThat(done.path("status").asString()).isEqualTo("CANCELLED");
        assertThat(done.path("children").path("CANCELLED").asInt()).as(done.toString()).isEqualTo(6);
        JsonNode children = get(done.path("links").path("experiments").asString());
        assertThat(children.path("items").findValuesAsString("status")).hasSize(6).containsOnly("CANCELLED");
    }

    private JsonNode await(String location) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        JsonNode s = get(location);
        while (!List.of("SUCCEEDED", "FAILED", "CANCELLED").contains(s.path("status").asString())
                && System.nanoTime() < deadline) {
            Thread.sleep(100);
            s = get(location);
        }
        return s;
    }

    private static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    }

    private JsonNode get(String path) throws Exception {
        return json.readTree(send(HttpRequest.newBuilder(uri(path)).GET()));
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private HttpResponse<String> postRaw(String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private String send(HttpRequest.Builder request) throws Exception {
        HttpResponse<String> r = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r.body();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

}
