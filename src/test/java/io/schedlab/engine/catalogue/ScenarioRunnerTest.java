package io.schedlab.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.catalogue.ScenarioResult.Cell;
import io.schedlab.engine.catalogue.ScenarioResult.TableResult;
import io.schedlab.engine.catalogue.ScenarioTable.RatioReference;
import io.schedlab.engine.spec.ExperimentSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ScenarioRunnerTest {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    /** A result document whose only VM "guest" reports seed * factor. */
    private static JsonNode doc(double value) {
        return MAPPER.readTree("{\"summary\":{\"vmHeadline\":{\"guest\":{\"value\":" + value + ",\"unit\":\"s\"}}}}");
    }

    private static ExperimentSpec spec(String policy, long seed) {
        return Specs.experiment("t", seed, ExperimentSpec.StopCondition.DURATION, 1, Specs.host(1, 1, 1),
                Specs.policy(policy), List.of(Specs.vm("guest", 1, Specs.workload("cpu-loop"))), null);
    }

    private static Scenario scenario(int repeats) {
        ScenarioRun fast = new ScenarioRun("fast", spec("fast", 10), repeats,
                List.of(new Measure("r", "fast", Extractors.vmHeadline("guest"), 5.0)), null);
        ScenarioRun slow = new ScenarioRun("slow", spec("slow", 10), repeats,
                List.of(new Measure("r", "slow", Extractors.vmHeadline("guest"), 10.0)), "slow is a stand-in");
        ScenarioRun missing = new ScenarioRun("future", spec("future", 10), repeats,
                List.of(new Measure("r", "future", Extractors.vmHeadline("guest"), 7.0)), null);
        ScenarioTable table = new ScenarioTable("caption", "row", List.of("r"), List.of("fast", "slow", "future"),
                List.of(fast, slow, missing), RatioReference.column("fast"));
        return new Scenario("T", "test", List.of("set-up"), "shape", List.of(table));
    }

    @Test
    void repeatsUseSuccessiveSeedsAndGiveMeanAndStddev() {
        List<Long> seeds = new ArrayList<>();
        ScenarioRunner runner = new ScenarioRunner(raw -> {
            seeds.add(raw.seed());
            double factor = raw.scheduler().policy().equals("slow") ? 2 : 1;
            return doc(raw.seed() * factor);
        }, name -> !name.equals("future"));
        TableResult t = runner.run(scenario(3), line -> { }).tables().get(0);
        assertThat(seeds).containsExactly(10L, 11L, 12L, 10L, 11L, 12L);
        Cell fast = t.cell("r", "fast");
        assertThat(fast.n()).isEqualTo(3);
        assertThat(fast.mean()).isCloseTo(11, within(1e-12));
        assertThat(fast.stddev()).isCloseTo(1, within(1e-12));
        assertThat(t.cell("r", "slow").mean()).isCloseTo(22, within(1e-12));
    }

    @Test
    void unavailablePolicyIsReportedNotFailed() {
        ScenarioRunner runner = new ScenarioRunner(raw -> doc(1), name -> !name.equals("future"));
        ScenarioResult result = runner.run(scenario(1), line -> { });
        TableResult t = result.tables().get(0);
        assertThat(t.cell("r", "future").measured()).isFalse();
        assertThat(t.cell("r", "future").published()).isEqualTo(7.0);
        assertThat(t.notes()).contains("policy 'future' not available yet (not registered in this engine): its cells are n/a",
                "slow is a stand-in");
        String text = TablePrinter.print(result);
        assertThat(text).contains("n/a").contains("not available yet");
    }

    @Test
    void engineFailuresBecomeNotes() {
        ScenarioRunner runner = new ScenarioRunner(raw -> {
            if (raw.scheduler().policy().equals("slow")) {
                throw new IllegalArgumentException("invalid spec: /vms/0 bad");
            }
            return doc(4);
        }, name -> true);
        TableResult t = runner.run(scenario(2), line -> { }).tables().get(0);
        assertThat(t.notes()).contains("slow failed: invalid spec: /vms/0 bad");
        assertThat(t.cell("r", "slow").measured()).isFalse();
        assertThat(t.cell("r", "fast").mean()).isEqualTo(4.0);
    }

    @Test
    void printerShowsSimulatedPublishedAndRatios() {
        ScenarioRunner runner = new ScenarioRunner(
                raw -> doc(raw.scheduler().policy().equals("slow") ? 30 : 10), name -> !name.equals("future"));
        String text = TablePrinter.print(runner.run(scenario(1), line -> { }));
        String row = text.lines().filter(l -> l.trim().startsWith("r ")).findFirst().orElseThrow();
        // fast: sim 10, pub 5, ratios 1.00 / 1.00; slow: sim 30, pub 10, ratios 3.00 / 2.00; future: n/a, pub 7, -, 1.40
        assertThat(row.replaceAll("\\s+", " ").trim())
                .isEqualTo("r | 10 5 1.00 1.00 | 30 10 3.00 2.00 | n/a 7 - 1.40");
        assertThat(text).containsPattern(" +\\| fast +\\| slow +\\| future");
        assertThat(text).contains("ratio = value / fast (same row)");
    }

    @Test
    void threadsDoNotChangeTheTables() {
        ScenarioRunner.Executor executor = raw -> doc(raw.seed() * (raw.scheduler().policy().equals("slow") ? 2.5 : 1));
        String one = TablePrinter.print(new ScenarioRunner(executor, name -> true, 1).run(scenario(4), line -> { }));
        String three = TablePrinter.print(new ScenarioRunner(executor, name -> true, 3).run(scenario(4), line -> { }));
        assertThat(three).isEqualTo(one).contains("11.5+-1.29", "28.8+-3.23");
    }
}
