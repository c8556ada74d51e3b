package io.schedlab.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.SchedLabApplication;
import io.schedlab.jobs.support.GatedSimulator;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The per-key running quota at pick-up, with real workers and db-scheduler: a key at its quota has
 * its further jobs handed back while another key's later job runs; when the key's run ends its
 * oldest waiting job starts within a poll, long before the (here one-minute) recheck, so the
 * wake-up works; never more than the quota RUNNING at once.
 */
@SpringBootTest(classes = {SchedLabApplication.class, RunningQuotaPickUpTest.Gated.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
                "spring.datasource.url=jdbc:h2:mem:running-quota;DB_CLOSE_DELAY=-1",
                "schedlab.data-dir=target/test-data/running-quota", "schedlab.jobs.workers=3",
                "schedlab.quotas.max-running-per-key=1", "schedlab.quotas.running-recheck=60s"})
class RunningQuotaPickUpTest {

    private static final Duration SOON = Duration.ofSeconds(10);

    @TestConfiguration(proxyBeanMethods = false)
    static class Gated {
        @Bean
        @Primary
        GatedSimulator gatedSimulator() {
            return new GatedSimulator();
        }
    }

    @DynamicPropertySource
    static void keys(DynamicPropertyRegistry registry) throws Exception {
        KeyedClient.useKeysFile(registry, List.of("alice", "bob"));
    }

    @LocalServerPort
    int port;
    @Autowired
    DataSource dataSource;
    @Autowired
    GatedSimulator simulator;

    private final JsonMapper json = JsonMapper.builder().build();

    private String submit(String user, String name) throws Exception {
        HttpResponse<String> r = new KeyedClient(port).post(user, "/api/v1/experiments", null, KeyedClient.experiment(name));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        return json.readTree(r.body()).path("id").asString();
    }

    private Map<String, Object> statuses() {
        Map<String, Object> out = new java.util.TreeMap<>();
        new JdbcTemplate(dataSource).query("select name, status from experiments", rs -> {
            out.put(rs.getString(1), rs.getString(2));
        });
        return out;
    }

    private long running(String owner) {
        return new JdbcTemplate(dataSource).queryForObject(
                "select count(*) from experiments where owner = ? and status = 'RUNNING'", Long.class, owner);
    }

    /** Waits for {@code condition}, recording the most RUNNING experiments alice had at any poll. */
    private void await(String what, BooleanSupplier condition, AtomicLong aliceMax) throws InterruptedException {
        long deadline = System.nanoTime() + SOON.toNanos();
        while (!condition.getAsBoolean()) {
            aliceMax.accumulateAndGet(running("alice"), Math::max);
            assertThat(System.nanoTime()).as(what + "; now " + statuses() + ", simulating " + simulator.running())
                    .isLessThan(deadline);
            Thread.sleep(20);
        }
        aliceMax.accumulateAndGet(running("alice"), Math::max);
    }

    @Test
    void aKeyOverItsRunningQuotaWaitsWithoutHoldingBackAnotherKeyAndStartsWhenItsRunEnds() throws Exception {
        AtomicLong aliceMax = new AtomicLong();
        submit("alice", "a1");
        submit("alice", "a2");
        submit("alice", "a3");
        submit("bob", "b1");

        // three workers: one of alice's runs, the others are handed back, bob's later b1 runs beside it
        List<String> alice = new java.util.ArrayList<>(List.of("a1", "a2", "a3"));
        await("b1 and one of alice's simulating", () -> simulator.running().contains("b1")
                && simulator.running().stream().anyMatch(alice::contains), aliceMax);
        Thread.sleep(1_500); // a few polls: alice's others stay queued, nothing else starts
        assertThat(simulator.running()).hasSize(2).contains("b1");
        while (!alice.isEmpty()) {
            String runs = simulator.running().stream().filter(alice::contains).findFirst().orElseThrow();
            alice.remove(runs);
            assertThat(alice).allSatisfy(waiting -> assertThat(statuses()).containsEntry(waiting, "QUEUED"));
            simulator.release(runs);
            if (!alice.isEmpty()) {
                // the oldest waiting starts well before the 60 s recheck: the ended run woke it
                String next = alice.get(0);
                await(next + " simulating after " + runs + " ended", () -> simulator.running().contains(next), aliceMax);
                assertThat(statuses()).containsEntry(runs, "SUCCEEDED");
            }
        }
        simulator.release("b1");
        await("everything done", () -> statuses().values().stream().allMatch("SUCCEEDED"::equals), aliceMax);
        assertThat(aliceMax.get()).as("alice's most RUNNING at once").isEqualTo(1);
    }
}
