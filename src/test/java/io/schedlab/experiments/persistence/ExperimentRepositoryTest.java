package io.schedlab.experiments.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedlab.experiments.status.ExperimentStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.JdbcTemplate;

@DataJpaTest
class ExperimentRepositoryTest {

    @Autowired
    ExperimentRepository repository;

    @Autowired
    JdbcTemplate jdbc;

    private NewExperiment save(String name, Map<String, String> labels, Instant created) {
        NewExperiment e = new NewExperiment(UUID.randomUUID(), name, LabelsJson.write(labels), "credit",
                "{ \"name\" : \"" + name + "\" }\n", "{\"name\":\"" + name + "\",\"seed\":1}", "0.1.0", created);
        repository.insertQueued(e);
        return e;
    }

    @Test
    void insertQueuedStoresRawInputExactlyAndNormalizedInputAsJson() {
        String raw = "{\n  \"name\": \"caf\u00e9\",   \"seed\" : 7 }\t\n";
        NewExperiment e = new NewExperiment(UUID.randomUUID(), "café", "{\"team\":\"x\"}", "credit", raw,
                "{\"name\":\"café\",\"seed\":7,\"nested\":{\"a\":[1,2.5,true]}}", "0.1.0",
                Instant.parse("2026-11-30T10:15:30.123456Z"));
        repository.insertQueued(e);

        assertThat(repository.findInputRaw(e.id())).contains(raw);
        assertThat(repository.findInputNormalized(e.id()).orElseThrow())
                .isEqualTo("{\"name\":\"café\",\"seed\":7,\"nested\":{\"a\":[1,2.5,true]}}");
        // the database stores it as a JSON value, not a JSON string literal
        String viaSql = jdbc.queryForObject("select cast(input_normalized as varchar) from experiments where id = ?",
                String.class, e.id());
        assertThat(viaSql).startsWith("{").contains("\"seed\":7");
        // what the service answers from memory is what a later read returns
        assertThat(repository.findRow(e.id())).contains(e.toRow());
    }

    @Test
    void insertQueuedRefusesADuplicateId() {
        NewExperiment e = new NewExperiment(UUID.randomUUID(), "once", "{}", "credit", "{}", "{}", "0.1.0",
                Instant.parse("2026-11-30T10:15:30Z"));
        repository.insertQueued(e);
        assertThatThrownBy(() -> repository.insertQueued(e)).isInstanceOf(DataIntegrityViolationException.class);
        assertThat(repository.count()).isEqualTo(1);
    }

    @Test
    void insertQueuedAllStoresEveryRowOfTheBatchAsASingleInsertWould() {
        Instant created = Instant.parse("2026-11-30T10:15:30.5Z");
        List<NewExperiment> batch = java.util.stream.IntStream.range(0, 3).mapToObj(i -> new NewExperiment(
                UUID.randomUUID(), "child-" + i, "{\"sweep-cell\":\"" + i + "\"}", "credit", "{\"name\":\"child-" + i + "\"}",
                "{\"name\":\"child-" + i + "\",\"seed\":" + i + "}", "0.1.0", created)).toList();
        repository.insertQueuedAll(batch);
        for (NewExperiment e : batch) {
            assertThat(repository.findRow(e.id())).contains(e.toRow());
            assertThat(repository.findInputNormalized(e.id()).orElseThrow()).contains("\"seed\":");
        }
        // a duplicate id anywhere in a batch fails it
        NewExperiment again = batch.get(1);
        assertThatThrownBy(() -> repository.insertQueuedAll(List.of(new NewExperiment(UUID.randomUUID(), "new", "{}",
                "credit", "{}", "{}", "0.1.0", created), again))).isInstanceOf(DataIntegrityViolationException.class);
    }

    @Test
    void labelsAtTheEnginesTotalLengthBoundFitTheColumnEvenWhenEveryCharacterIsEscaped() {
        // SpecValidator.MAX_LABELS_TOTAL_LENGTH: 64 labels of 4 + 60 characters; \u0001 escapes to 6 characters
        Map<String, String> labels = new java.util.TreeMap<>();
        for (int i = 0; i < io.schedlab.engine.spec.SpecValidator.MAX_LABELS; i++) {
            labels.put(String.format("k%03d", i), "\u0001".repeat(60));
        }
        assertThat(labels.entrySet().stream().mapToInt(e -> e.getKey().length() + e.getValue().length()).sum())
                .isEqualTo(io.schedlab.engine.spec.SpecValidator.MAX_LABELS_TOTAL_LENGTH);
        assertThat(LabelsJson.write(labels).length()).isGreaterThan(20_000);

        NewExperiment e = save("max labels", labels, Instant.now());

        assertThat(repository.findRow(e.id()).orElseThrow().labelsJson()).isEqualTo(LabelsJson.write(labels));
        assertThat(ids(new ExperimentFilter(null, null, Map.of("k063", "\u0001".repeat(60)), 0, 10)))
                .containsExactly(e.id());
    }

    @Test
    void resultRoundTripsThroughJsonColumnWithSummaryColumns() {
        NewExperiment e = save("r", Map.of(), Instant.now());
        assertThat(repository.start(e.id(), List.of(ExperimentStatus.QUEUED), ExperimentStatus.RUNNING,
                Instant.now())).isEqualTo(1);
        String result = "{\"engineVersion\":\"0.1.0\",\"summary\":{\"events\":42}}";
        assertThat(repository.succeed(e.id(), ExperimentStatus.RUNNING, ExperimentStatus.SUCCEEDED, Instant.now(),
                2_500_000_000L, result, 0.25, 42, 7, 3, 0.99, "0.1.0")).isEqualTo(1);

        assertThat(repository.findResult(e.id())).contains(result);
        ExperimentRow row = repository.findRow(e.id()).orElseThrow();
        assertThat(row.status()).isEqualTo(ExperimentStatus.SUCCEEDED);
        assertThat(row.events()).isEqualTo(42);
        assertThat(row.contextSwitches()).isEqualTo(7);
        assertThat(row.migrations()).isEqualTo(3);
        assertThat(row.jainFairness()).isEqualTo(0.99);
        assertThat(row.progress()).isEqualTo(1.0);
        assertThat(row.simulatedNanos()).isEqualTo(2_500_000_000L);
        assertThat(row.finishedAt()).isNotNull();
    }

    @Test
    void transitionsOnlyApplyFromTheExpectedStatus() {
        NewExperiment e = save("t", Map.of(), Instant.now());
        UUID id = e.id();
        // cannot succeed while QUEUED
        assertThat(repository.succeed(id, ExperimentStatus.RUNNING, ExperimentStatus.SUCCEEDED, Instant.now(), 1, "{}",
                0, 0, 0, 0, 1.0, "x")).isZero();
        assertThat(repository.finish(id, List.of(ExperimentStatus.QUEUED), ExperimentStatus.CANCELLED, null,
                Instant.now())).isEqualTo(1);
        // a cancelled experiment cannot start or be cancelled again
        assertThat(repository.start(id, List.of(ExperimentStatus.QUEUED, ExperimentStatus.RUNNING),
                ExperimentStatus.RUNNING, Instant.now())).isZero();
        assertThat(repository.requestCancel(id, ExperimentStatus.RUNNING)).isZero();
        assertThat(repository.findStatus(id)).contains(ExperimentStatus.CANCELLED);
        long version = jdbc.queryForObject("select version from experiments where id = ?", Long.class, id);
        assertThat(version).isEqualTo(1);
    }

    @Test
    void listsNewestFirstAndFiltersByStatusNameAndLabels() {
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        NewExperiment a = save("Seed 001 static", Map.of("team", "lab", "seed", "001"), t0);
        NewExperiment b = save("seed 004 credit2", Map.of("team", "lab", "seed", "004"), t0.plusSeconds(1));
        NewExperiment c = save("other_100%", Map.of("team", "ops", "note", "x\",\"team\":\"lab"), t0.plusSeconds(2));
        repository.finish(a.id(), List.of(ExperimentStatus.QUEUED), ExperimentStatus.CANCELLED, null, Instant.now());

        assertThat(ids(new ExperimentFilter(null, null, Map.of(), 0, 10))).containsExactly(c.id(), b.id(), a.id());
        assertThat(ids(new ExperimentFilter(null, null, Map.of(), 1, 2))).containsExactly(a.id());
        assertThat(repository.countRows(new ExperimentFilter(null, null, Map.of(), 1, 2))).isEqualTo(3);
        assertThat(ids(new ExperimentFilter(ExperimentStatus.QUEUED, null, Map.of(), 0, 10)))
                .containsExactly(c.id(), b.id());
        assertThat(ids(new ExperimentFilter(null, "SEED", Map.of(), 0, 10))).containsExactly(b.id(), a.id());
        // LIKE wildcards in the filter are literal
        assertThat(ids(new ExperimentFilter(null, "_100%", Map.of(), 0, 10))).containsExactly(c.id());
        assertThat(ids(new ExperimentFilter(null, "d_0", Map.of(), 0, 10))).isEmpty(); // "_" would match "d 0"
        // label filter matches key and value exactly, even when another value contains the text
        assertThat(ids(new ExperimentFilter(null, null, Map.of("team", "lab"), 0, 10))).containsExactly(b.id(), a.id());
        assertThat(ids(new ExperimentFilter(null, null, Map.of("team", "lab", "seed", "004"), 0, 10)))
                .containsExactly(b.id());
        assertThat(ids(new ExperimentFilter(null, null, Map.of("team", "la"), 0, 10))).isEmpty();
        assertThat(ids(new ExperimentFilter(null, null, Map.of("eam", "lab"), 0, 10))).isEmpty();
    }

    private List<UUID> ids(ExperimentFilter f) {
        return repository.findRows(f).stream().map(ExperimentRow::id).toList();
    }
}
