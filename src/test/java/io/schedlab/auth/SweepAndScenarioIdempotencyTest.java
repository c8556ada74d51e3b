package io.schedlab.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Idempotency-Key on POST /api/v1/sweeps and POST /api/v1/scenarios/{name}/runs, over real HTTP
 * with API keys: the same key and body replay the first answer (same ids, nothing more stored),
 * another body or operation is 422, concurrent duplicates store one submission (the others are
 * 409 or the replay), keys are per API key and expire after the TTL. A sweep or scenario run whose
 * children would take the key over its queued quota is refused whole.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:sweep-idempotency;DB_CLOSE_DELAY=-1", "schedlab.jobs.enabled=false",
        "schedlab.idempotency.ttl=" + SweepAndScenarioIdempotencyTest.TTL_SECONDS + "s", "schedlab.quotas.max-queued-per-key=" + SweepAndScenarioIdempotencyTest.QUEUED_QUOTA})
class SweepAndScenarioIdempotencyTest {

    static final int QUEUED_QUOTA = 20;
    /** Long enough that a loaded machine finishes a replay check before the key expires. */
    static final int TTL_SECONDS = 10;
    static final String RUN_E2 = "{\"repetitions\": 1, \"durationSeconds\": 5}";

    @DynamicPropertySource
    static void keys(DynamicPropertyRegistry registry) throws Exception {
        KeyedClient.useKeysFile(registry, List.of("alice", "bob", "carol", "dave", "erin", "frank", "gina"));
    }

    @LocalServerPort
    int port;
    @Autowired
    DataSource dataSource;

    private final JsonMapper json = JsonMapper.builder().build();

    private KeyedClient client() {
        return new KeyedClient(port);
    }

    static String sweep(String name) {
        return "{\"name\": \"" + name + "\", \"seed\": 3, \"repetitions\": 1, \"base\": {\"durationSeconds\": 0.5,"
                + " \"host\": {\"sockets\": 1, \"coresPerSocket\": 2}, \"scheduler\": {\"policy\": \"credit\"},"
                + " \"vms\": [{\"name\": \"a\", \"vcpus\": 1, \"workload\": {\"type\": \"cpu-loop\"}}]},"
                + " \"axes\": [{\"name\": \"policy\", \"variants\": [{\"name\": \"credit\", \"patch\": {}},"
                + " {\"name\": \"credit2\", \"patch\": {\"scheduler\": {\"policy\": \"credit2\"}}}]}],"
                + " \"metrics\": [{\"name\": \"switches\", \"pointer\": \"/summary/contextSwitches\", \"better\": \"lower\"}]}";
    }

    private JsonNode accepted(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        return json.readTree(r.body());
    }

    private static void assertProblem(HttpResponse<String> r, int status, String kind) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        assertThat(r.body()).contains("https://schedlab.io/problems/" + kind);
    }

    /** Sweeps whose children the owner submitted. */
    private long sweepsOf(String owner) {
        return new JdbcTemplate(dataSource).queryForObject("select count(distinct se.sweep_id) from sweep_experiments se"
                + " join experiments e on e.id = se.experiment_id where e.owner = ?", Long.class, owner);
    }

    private long experimentsOf(String owner) {
        return new JdbcTemplate(dataSource).queryForObject("select count(*) from experiments where owner = ?",
                Long.class, owner);
    }

    @Test
    void aSweepWithTheSameKeyAndBodyIsReplayedAndAnotherBodyOrOperationIs422() throws Exception {
        KeyedClient c = client();
        JsonNode first = accepted(c.post("alice", "/api/v1/sweeps", "s-1", sweep("a")));
        HttpResponse<String> again = c.post("alice", "/api/v1/sweeps", "s-1", sweep("a"));
        assertThat(accepted(again).path("id").asString()).isEqualTo(first.path("id").asString());
        assertThat(again.headers().firstValue("Location").orElseThrow()).endsWith(first.path("id").asString());
        assertThat(sweepsOf("alice")).isEqualTo(1);
        assertThat(experimentsOf("alice")).isEqualTo(2);

        assertProblem(c.post("alice", "/api/v1/sweeps", "s-1", sweep("b")), 422, "idempotency-key-reused");
        // a key names one request: not also an experiment or a scenario run
        HttpResponse<String> elsewhere = c.post("alice", "/api/v1/scenarios/E2/runs", "s-1", RUN_E2);
        assertProblem(elsewhere, 422, "idempotency-key-reused");
        assertThat(elsewhere.body()).contains("submitSweep");
        assertThat(sweepsOf("alice")).isEqualTo(1);
        assertThat(experimentsOf("alice")).isEqualTo(2);

        // keys are per API key: bob's s-1 is his own
        assertThat(accepted(c.post("bob", "/api/v1/sweeps", "s-1", sweep("a"))).path("id").asString())
                .isNotEqualTo(first.path("id").asString());
        assertProblem(c.post("bob", "/api/v1/sweeps", "x".repeat(300), sweep("a")), 400, "malformed-request");
    }

    @Test
    void concurrentDuplicateSweepsStoreOneSweep() throws Exception {
        KeyedClient c = client();
        List<HttpResponse<String>> answers = KeyedClient.concurrently(8,
                () -> c.post("carol", "/api/v1/sweeps", "same", sweep("c")));
        Set<String> ids = new TreeSet<>();
        for (HttpResponse<String> r : answers) {
            assertThat(r.statusCode()).as(r.body()).isIn(202, 409);
            if (r.statusCode() == 409) {
                assertProblem(r, 409, "idempotency-key-in-use");
                assertThat(r.headers().firstValue("Retry-After")).isPresent();
            } else {
                ids.add(json.readTree(r.body()).path("id").asString());
            }
        }
        assertThat(ids).hasSize(1);
        assertThat(sweepsOf("carol")).isEqualTo(1);
        assertThat(experimentsOf("carol")).isEqualTo(2);
    }

    @Test
    void aScenarioRunWithTheSameKeyAndBodyReplaysItsSweepsAndAnotherBodyOrScenarioIs422() throws Exception {
        KeyedClient c = client();
        JsonNode first = accepted(c.post("dave", "/api/v1/scenarios/E2/runs", "r-1", RUN_E2));
        List<String> sweeps = first.path("tables").findValuesAsString("sweepId");
        assertThat(sweeps).isNotEmpty();
        JsonNode again = accepted(c.post("dave", "/api/v1/scenarios/E2/runs", "r-1", RUN_E2));
        assertThat(again.path("tables").findValuesAsString("sweepId")).isEqualTo(sweeps);
        assertThat(again.path("tables").findValuesAsString("caption"))
                .isEqualTo(first.path("tables").findValuesAsString("caption"));
        long stored = experimentsOf("dave");
        assertThat(sweepsOf("dave")).isEqualTo(sweeps.size());

        assertProblem(c.post("dave", "/api/v1/scenarios/E2/runs", "r-1", "{\"repetitions\": 2, \"durationSeconds\": 5}"),
                422, "idempotency-key-reused");
        assertProblem(c.post("dave", "/api/v1/scenarios/E1/runs", "r-1", RUN_E2), 422, "idempotency-key-reused");
        assertThat(experimentsOf("dave")).isEqualTo(stored);
        assertThat(sweepsOf("dave")).isEqualTo(sweeps.size());
    }

    @Test
    void concurrentDuplicateScenarioRunsStoreOneRun() throws Exception {
        KeyedClient c = client();
        List<HttpResponse<String>> answers = KeyedClient.concurrently(6,
                () -> c.post("erin", "/api/v1/scenarios/E2/runs", "same-run", RUN_E2));
        Set<List<String>> runs = new java.util.HashSet<>();
        for (HttpResponse<String> r : answers) {
            assertThat(r.statusCode()).as(r.body()).isIn(202, 409);
            if (r.statusCode() == 409) {
                assertProblem(r, 409, "idempotency-key-in-use");
            } else {
                runs.add(json.readTree(r.body()).path("tables").findValuesAsString("sweepId"));
            }
        }
        assertThat(runs).hasSize(1);
        assertThat(sweepsOf("erin")).isEqualTo(runs.iterator().next().size());
    }

    @Test
    void keysOfSweepsAndScenarioRunsExpireAfterTheTtl() throws Exception {
        KeyedClient c = client();
        String sweep = accepted(c.post("frank", "/api/v1/sweeps", "k-exp", sweep("f"))).path("id").asString();
        List<String> run = accepted(c.post("frank", "/api/v1/scenarios/E2/runs", "k-exp-run", RUN_E2))
                .path("tables").findValuesAsString("sweepId");
        Thread.sleep(TTL_SECONDS * 1000L + 500);
        assertThat(accepted(c.post("frank", "/api/v1/sweeps", "k-exp", sweep("other"))).path("id").asString())
                .isNotEqualTo(sweep);
        assertThat(accepted(c.post("frank", "/api/v1/scenarios/E2/runs", "k-exp-run", RUN_E2))
                .path("tables").findValuesAsString("sweepId")).doesNotContainAnyElementsOf(run);
    }

    @Test
    void aSubmissionWhoseChildrenWouldGoOverTheQueuedQuotaIsRefusedWhole() throws Exception {
        KeyedClient c = client();
        JsonNode first = accepted(c.post("gina", "/api/v1/scenarios/E2/runs", null, RUN_E2));
        long run = 0;
        for (JsonNode t : first.path("tables")) {
            run += t.path("total").asLong();
        }
        long stored = run;
        while (stored + run <= QUEUED_QUOTA) { // sweeps of 2 until one more run would not fit
            accepted(c.post("gina", "/api/v1/sweeps", null, sweep("g" + stored)));
            stored += 2;
        }
        assertThat(experimentsOf("gina")).isEqualTo(stored);
        long sweeps = sweepsOf("gina");

        HttpResponse<String> refused = c.post("gina", "/api/v1/scenarios/E2/runs", "over", RUN_E2);
        assertProblem(refused, 429, "quota-exceeded");
        JsonNode problem = json.readTree(refused.body());
        assertThat(problem.path("quotaProperty").asString()).isEqualTo("schedlab.quotas.max-queued-per-key");
        assertThat(problem.path("quota").asLong()).isEqualTo(QUEUED_QUOTA);
        assertThat(problem.path("current").asLong()).isEqualTo(stored);
        assertThat(problem.path("requested").asLong()).isEqualTo(run);
        assertThat(refused.headers().firstValue("Retry-After")).isPresent();
        // no table of the run was stored
        assertThat(experimentsOf("gina")).isEqualTo(stored);
        assertThat(sweepsOf("gina")).isEqualTo(sweeps);

        assertThat(stored + 2).as("a sweep still fits").isLessThanOrEqualTo(QUEUED_QUOTA);
        while (stored + 2 <= QUEUED_QUOTA) { // what fits still goes in
            accepted(c.post("gina", "/api/v1/sweeps", null, sweep("g" + stored)));
            stored += 2;
        }
        assertProblem(c.post("gina", "/api/v1/sweeps", null, sweep("over")), 429, "quota-exceeded");
        assertThat(experimentsOf("gina")).isEqualTo(stored);
    }
}
