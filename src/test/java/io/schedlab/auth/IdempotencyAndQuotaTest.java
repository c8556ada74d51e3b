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
import tools.jackson.databind.json.JsonMapper;

/**
 * Idempotency-Key on POST /api/v1/experiments and the per-key quota, over real HTTP with API keys:
 * replay (same id, one row), another body 422, concurrent duplicates one experiment (others 409 or
 * the replay), keys per owner, expiry, and 429 quota-exceeded (queued quota) with Retry-After.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:idempotency;DB_CLOSE_DELAY=-1", "schedlab.jobs.enabled=false",
        "schedlab.idempotency.ttl=2s", "schedlab.quotas.max-queued-per-key=3"})
class IdempotencyAndQuotaTest {

    static final List<String> USERS = List.of("alice", "bob", "carol", "dave", "erin");

    @DynamicPropertySource
    static void keysFile(DynamicPropertyRegistry registry) throws Exception {
        KeyedClient.useKeysFile(registry, USERS);
    }

    @LocalServerPort
    int port;
    @Autowired
    DataSource dataSource;

    private final JsonMapper json = JsonMapper.builder().build();

    private HttpResponse<String> submit(String user, String key, String body) throws Exception {
        return new KeyedClient(port).post(user, "/api/v1/experiments", key, body);
    }

    private String id(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        return json.readTree(r.body()).path("id").asString();
    }

    private long stored(String owner) {
        return new JdbcTemplate(dataSource).queryForObject("select count(*) from experiments where owner = ?", Long.class,
                owner);
    }

    @Test
    void theSameKeyAndBodyReplaysTheFirstExperimentAndAnotherBodyIs422() throws Exception {
        String first = id(submit("alice", "k-1", body("a")));
        assertThat(id(submit("alice", "k-1", body("a")))).isEqualTo(first);
        assertThat(stored("alice")).isEqualTo(1);
        HttpResponse<String> other = submit("alice", "k-1", body("b"));
        assertThat(other.statusCode()).isEqualTo(422);
        assertThat(other.body()).contains("https://schedlab.io/problems/idempotency-key-reused");
        assertThat(stored("alice")).isEqualTo(1);
        assertThat(new JdbcTemplate(dataSource).queryForObject(
                "select count(*) from idempotency_keys where owner_key = 'alice' and resource_ids = ?",
                Long.class, first)).isEqualTo(1);
        // keys are per API key: bob's k-1 is his own
        assertThat(id(submit("bob", "k-1", body("a")))).isNotEqualTo(first);
    }

    @Test
    void concurrentDuplicatesStoreOneExperiment() throws Exception {
        Set<String> ids = new TreeSet<>();
        for (HttpResponse<String> r : KeyedClient.concurrently(8, () -> submit("erin", "same", body("c")))) {
            assertThat(r.statusCode()).as(r.body()).isIn(202, 409);
            if (r.statusCode() == 409) {
                assertThat(r.body()).contains("https://schedlab.io/problems/idempotency-key-in-use");
            } else {
                ids.add(id(r));
            }
        }
        assertThat(ids).hasSize(1);
        assertThat(stored("erin")).isEqualTo(1);
    }

    @Test
    void aKeyExpiresAfterTheTtl() throws Exception {
        String first = id(submit("dave", "k-exp", body("a")));
        Thread.sleep(2_500);
        String second = id(submit("dave", "k-exp", body("b")));
        assertThat(second).isNotEqualTo(first);
        HttpResponse<String> bad = submit("dave", "x".repeat(300), body("a"));
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("Idempotency-Key");
    }

    @Test
    void aKeyOverItsQuotaOfQueuedWorkIs429WithRetryAfterNamingTheLimit() throws Exception {
        for (int i = 0; i < 3; i++) {
            id(submit("carol", null, body("q" + i)));
        }
        HttpResponse<String> over = submit("carol", null, body("q3"));
        assertThat(over.statusCode()).isEqualTo(429);
        assertThat(over.body()).contains("https://schedlab.io/problems/quota-exceeded");
        assertThat(json.readTree(over.body()).path("quotaProperty").asString()).isEqualTo("schedlab.quotas.max-queued-per-key");
        assertThat(json.readTree(over.body()).path("quota").asLong()).isEqualTo(3);
        assertThat(over.headers().firstValue("Retry-After")).isPresent();
        assertThat(stored("carol")).isEqualTo(3);
        // the quota is per key: another key still submits
        id(submit("bob", null, body("q4")));
    }

    private static String body(String name) throws Exception {
        return KeyedClient.experiment(name);
    }
}
