package io.schedlab.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.SchedLabApplication;
import io.schedlab.experiments.Experiment;
import io.schedlab.experiments.ExperimentService;
import io.schedlab.experiments.status.ExperimentStatus;
import io.schedlab.experiments.persistence.ExperimentFilter;
import io.schedlab.experiments.persistence.ExperimentRepository;
import io.schedlab.experiments.persistence.ExperimentRow;
import io.schedlab.experiments.persistence.NewExperiment;
import io.schedlab.jobs.support.FreshPostgresDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The experiments store on the real PostgreSQL (a fresh database per run; Testcontainers when a
 * Docker engine exists): Flyway's PostgreSQL migration, jsonb columns, the label filter, and the
 * seed 001 flow through the real job queue and engine to a stored result, and the SQL of the job's
 * state changes.
 */
class ApiPostgresEndToEndTest {

    private static FreshPostgresDatabase database;
    private static ConfigurableApplicationContext app;

    @BeforeAll
    static void start() {
        database = FreshPostgresDatabase.create();
        List<String> args = new ArrayList<>();
        for (String p : database.springProperties()) {
            args.add("--" + p);
        }
        args.add("--schedlab.jobs.workers=2");
        args.add("--schedlab.data-dir=target/test-data/api-pg");
        app = new SpringApplicationBuilder(SchedLabApplication.class).web(WebApplicationType.NONE)
                .run(args.toArray(String[]::new));
    }

    @AfterAll
    static void stop() {
        FreshPostgresDatabase.closeAfter(app, database);
    }

    @Test
    void seed001RunsToAStoredJsonbResult() throws Exception {
        ExperimentService experiments = app.getBean(ExperimentService.class);
        String body = new ClassPathResource("service/seed001-static.json").getContentAsString(StandardCharsets.UTF_8)
                .replace("\"seed\": 1,", "\"labels\": {\"db\": \"postgresql\", \"note\": \"50% \\\"quoted\\\"\"}, \"seed\": 1,");
        Experiment submitted = experiments.submit(body.getBytes(StandardCharsets.UTF_8));

        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        Experiment e = experiments.get(submitted.id());
        while (!e.status().finished() && System.nanoTime() < deadline) {
            Thread.sleep(50);
            e = experiments.get(submitted.id());
        }
        assertThat(e.status()).as(e.toString()).isEqualTo(ExperimentStatus.SUCCEEDED);

        JdbcTemplate jdbc = new JdbcTemplate(app.getBean(DataSource.class));
        assertThat(jdbc.queryForObject("select jsonb_typeof(result) from experiments where id = ?", String.class,
                e.id())).isEqualTo("object");
        assertThat(jdbc.queryForObject("select result->>'stopReason' from experiments where id = ?", String.class,
                e.id())).isEqualTo("all-complete");
        assertThat(jdbc.queryForObject("select input_normalized->'vms'->1->>'weight' from experiments where id = ?",
                String.class, e.id())).isEqualTo("256");
        assertThat(jdbc.queryForObject("select input_raw from experiments where id = ?", String.class, e.id()))
                .isEqualTo(body);
        assertThat(jdbc.queryForObject("select data_type from information_schema.columns where table_name = "
                + "'experiments' and column_name = 'result'", String.class)).isEqualTo("jsonb");
        // V4: wide enough for the engine's label bound JSON-escaped (SpecValidator.MAX_LABELS_TOTAL_LENGTH)
        assertThat(jdbc.queryForObject("select character_maximum_length from information_schema.columns where "
                + "table_name = 'experiments' and column_name = 'labels'", Integer.class)).isEqualTo(32768);

        JsonNode result = JsonMapper.builder().build().readTree(experiments.resultJson(e.id()));
        for (JsonNode vm : result.path("vms")) {
            if (vm.path("name").asString().startsWith("VM")) {
                assertThat(vm.path("completionNanos").asLong() / 1e9).isCloseTo(126.0, within(1.5));
            }
        }
        assertThat(e.summary().events()).isEqualTo(result.path("summary").path("events").asLong());
        assertThat(e.labels()).containsEntry("note", "50% \"quoted\"");

        assertThat(experiments.list(new ExperimentFilter(ExperimentStatus.SUCCEEDED, "SEED 001",
                Map.of("db", "postgresql", "note", "50% \"quoted\""), 0, 10)).items())
                .extracting(Experiment::id).containsExactly(e.id());
        assertThat(experiments.list(new ExperimentFilter(null, null, Map.of("note", "50%"), 0, 10)).items()).isEmpty();
    }

    @Test
    void theJobsStateChangesAreConditionalOnPostgres() {
        ExperimentRepository repository = app.getBean(ExperimentRepository.class);
        Instant created = Instant.parse("2026-11-30T10:00:00.123456Z");
        NewExperiment cancelled = new NewExperiment(UUID.randomUUID(), "pg cancel", "{}", "static", "{}",
                "{\"name\":\"pg cancel\"}", "t", created);
        NewExperiment failed = new NewExperiment(UUID.randomUUID(), "pg fail", "{}", "static", "{}", "{}", "t", created);
        repository.insertQueued(cancelled); // no job enqueued: the workers never see these rows
        repository.insertQueued(failed);
        List<ExperimentStatus> active = List.of(ExperimentStatus.QUEUED, ExperimentStatus.RUNNING);
        Instant now = created.plusSeconds(1);

        assertThat(repository.findInputNormalized(cancelled.id())).contains("{\"name\": \"pg cancel\"}");
        assertThat(repository.start(cancelled.id(), active, ExperimentStatus.RUNNING, now)).isEqualTo(1);
        assertThat(repository.progress(cancelled.id(), ExperimentStatus.RUNNING, 0.25, 5_000_000L)).isEqualTo(1);
        assertThat(repository.requestCancel(cancelled.id(), ExperimentStatus.RUNNING)).isEqualTo(1);
        assertThat(repository.findCancelRequested(cancelled.id())).contains(true);
        assertThat(repository.start(cancelled.id(), active, ExperimentStatus.RUNNING, now)).as("cancel wins").isZero();
        assertThat(repository.finishCancelRequested(cancelled.id(), active, ExperimentStatus.CANCELLED, now))
                .isEqualTo(1);
        ExperimentRow row = repository.findRow(cancelled.id()).orElseThrow();
        assertThat(row.status()).isEqualTo(ExperimentStatus.CANCELLED);
        assertThat(row.progress()).isEqualTo(0.25);
        assertThat(row.startedAt()).isEqualTo(now);
        assertThat(row.finishedAt()).isEqualTo(now);

        assertThat(repository.finish(failed.id(), List.of(ExperimentStatus.RUNNING), ExperimentStatus.FAILED, "x", now))
                .as("not RUNNING").isZero();
        assertThat(repository.finish(failed.id(), active, ExperimentStatus.FAILED, "timed out", now)).isEqualTo(1);
        assertThat(repository.finish(failed.id(), active, ExperimentStatus.CANCELLED, null, now)).as("final").isZero();
        assertThat(repository.findRow(failed.id()).orElseThrow().failureReason()).isEqualTo("timed out");
        assertThat(repository.findCancelRequested(UUID.randomUUID())).isEmpty();
    }
}
