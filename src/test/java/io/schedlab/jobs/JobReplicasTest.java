package io.schedlab.jobs;

import io.schedlab.experiments.JobQueue;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.schedlab.jobs.support.InMemoryExperiments;
import io.schedlab.jobs.support.JobsApp;
import io.schedlab.jobs.support.JobsTestConfiguration;
import io.schedlab.jobs.support.Specs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/** Several processes over one database: an API-only replica, and workers that never run a job twice. */
class JobReplicasTest {

    private final InMemoryExperiments experiments = JobsTestConfiguration.EXPERIMENTS;
    private final String dbUrl = "jdbc:h2:mem:replicas-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";

    @Test
    void anApiOnlyReplicaEnqueuesButRunsNothingAndAWorkerReplicaRunsIt() throws InterruptedException {
        try (ConfigurableApplicationContext api = start("schedlab.jobs.enabled=false")) {
            UUID id = experiments.create(Specs.spec("handed-over", 0.05));
            api.getBean(JobQueue.class).enqueue(id);
            Thread.sleep(1_500);
            assertThat(experiments.get(id).status).isEqualTo("QUEUED");
            assertThat(new JdbcTemplate(api.getBean(DataSource.class)).queryForObject(
                    "select picked from scheduled_tasks where task_instance = ?", Boolean.class, id.toString()))
                    .isFalse();
            assertThat(api.getBean(MeterRegistry.class).get("schedlab.workers.size").gauge().value()).isZero();
            assertThat(api.getBeansOfType(HealthIndicator.class)).doesNotContainKey("dbScheduler");

            try (ConfigurableApplicationContext worker = start("schedlab.jobs.enabled=true")) {
                assertThat(worker.getBeansOfType(HealthIndicator.class)).containsKey("dbScheduler");
                assertThat(experiments.awaitFinished(id, Duration.ofSeconds(10)).status).isEqualTo("SUCCEEDED");
            }
        }
    }

    @Test
    void twoWorkerReplicasRunEveryJobExactlyOnce() throws InterruptedException {
        try (ConfigurableApplicationContext first = start("schedlab.jobs.workers=2");
                ConfigurableApplicationContext second = start("schedlab.jobs.workers=2")) {
            List<UUID> ids = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                UUID id = experiments.create(Specs.spec("many-" + i, 0.01));
                ids.add(id);
                (i % 2 == 0 ? first : second).getBean(JobQueue.class).enqueue(id);
            }
            for (UUID id : ids) {
                assertThat(experiments.awaitFinished(id, Duration.ofSeconds(30)).status).isEqualTo("SUCCEEDED");
            }
            assertThat(ids).allSatisfy(id -> assertThat(experiments.get(id).markRunningCalls).isEqualTo(1));
            assertThat(first.getBean(JobQueue.class).depth()).isZero();
        }
    }

    @Test
    void eachReplicaNamesItselfInPickedByAndInTheExperiment() {
        try (ConfigurableApplicationContext alpha = start("schedlab.jobs.workers=1", "schedlab.jobs.replica-name=alpha");
                ConfigurableApplicationContext unnamed = start("schedlab.jobs.workers=1", "server.port=0")) {
            String derived = unnamed.getBean(ReplicaName.class).name();
            assertThat(derived).endsWith(":pid" + ProcessHandle.current().pid()); // host:pidN, not the bare host name
            List<UUID> ids = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                UUID id = experiments.create(Specs.spec("named-" + i, 0.2));
                ids.add(id);
                alpha.getBean(JobQueue.class).enqueue(id);
            }
            JdbcTemplate jdbc = new JdbcTemplate(alpha.getBean(DataSource.class));
            java.util.Set<String> pickedBy = new java.util.TreeSet<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (ids.stream().anyMatch(id -> !experiments.get(id).status.equals("SUCCEEDED"))
                    && System.nanoTime() < deadline) {
                pickedBy.addAll(jdbc.queryForList("select picked_by from scheduled_tasks where picked", String.class));
                Thread.onSpinWait();
            }
            assertThat(pickedBy).isSubsetOf("alpha", derived).contains("alpha");
            java.util.Set<String> replicas = new java.util.TreeSet<>();
            ids.forEach(id -> replicas.add(experiments.get(id).replica));
            assertThat(replicas).isSubsetOf("alpha", derived).contains("alpha");
        }
    }

    private ConfigurableApplicationContext start(String... extra) {
        List<String> properties = new ArrayList<>(List.of("spring.datasource.url=" + dbUrl,
                "spring.datasource.username=sa", "spring.datasource.password=",
                "schedlab.data-dir=target/test-data/replicas"));
        properties.addAll(List.of(extra));
        return JobsApp.start(properties.toArray(String[]::new));
    }
}
