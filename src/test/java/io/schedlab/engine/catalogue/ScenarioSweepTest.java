package io.schedlab.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.sweepgrid.SweepDefinition;
import io.schedlab.engine.sweepgrid.SweepLimits;
import io.schedlab.engine.sweepgrid.SweepPlan;
import io.schedlab.engine.sweepgrid.SweepPlanner;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Every built-in table as a sweep definition: within the service's limits, and expanding to exactly the table's runs. */
class ScenarioSweepTest {

    private final SweepPlanner planner = new SweepPlanner(SweepLimits.DEFAULTS);
    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void eachCellAndRepetitionExpandsToTheRunsSpecWithConsecutiveSeeds() {
        for (boolean quick : new boolean[] {true, false}) {
            for (Scenario s : BuiltInScenarios.all(quick)) {
                for (int t = 0; t < s.tables().size(); t++) {
                    ScenarioTable table = s.tables().get(t);
                    SweepDefinition d = ScenarioSweep.of(s, t);
                    SweepPlan plan = planner.plan(d);
                    String what = s.id() + " table " + (t + 1) + (quick ? " quick" : "");
                    assertThat(plan.cells()).as(what).hasSize(table.runs().size());
                    for (int c = 0; c < table.runs().size(); c++) {
                        ScenarioRun run = table.runs().get(c);
                        assertThat(plan.seeds()).as(what).hasSize(run.repeats());
                        for (int r = 0; r < run.repeats(); r++) {
                            long seed = run.spec().seed() + r;
                            ExperimentSpec expanded = json.treeToValue(plan.experiment(c, r), ExperimentSpec.class);
                            assertThat(expanded).as(what + ", " + run.label()).isEqualTo(Specs.withSeed(run.spec(), seed));
                        }
                    }
                    assertThat(json.writeValueAsString(d.axes().get(0).variants())).as(what + ": unset members left out").doesNotContain(":null");
                    assertThat(d.published().cells()).as(what).hasSize(table.rows().size() * table.columns().size());
                    assertThat(d.published().rows()).isEqualTo(table.rows());
                    assertThat(d.published().columns()).isEqualTo(table.columns());
                }
            }
        }
    }

    @Test
    void publishedNumbersAndDirectionsComeWithTheDefinition() {
        Scenario e5 = BuiltInScenarios.byId("E5", false).orElseThrow();
        SweepDefinition four = ScenarioSweep.of(e5, 0);
        var socketJ8 = four.published().cells().stream()
                .filter(c -> c.row().equals("8") && c.column().equals("credit2 per-socket")).findFirst().orElseThrow();
        assertThat(socketJ8.value()).isEqualTo(PublishedNumbers.e5Seconds(4, "credit2 per-socket")[4]);
        assertThat(socketJ8.cell()).containsEntry(ScenarioSweep.AXIS, "4 vCPUs, credit2 per-socket, make -j 8");
        assertThat(four.published().reference().column()).isEqualTo("credit2 per-core");
        assertThat(four.metrics()).singleElement().satisfies(m -> {
            assertThat(m.name()).isEqualTo("vmHeadline.guest");
            assertThat(m.better()).as("seconds, lower is better").isEqualTo(SweepDefinition.Direction.LOWER);
        });
        SweepDefinition e1 = ScenarioSweep.of(BuiltInScenarios.byId("E1", false).orElseThrow(), 0);
        assertThat(e1.metrics()).extracting(SweepDefinition.Metric::name).contains("contextSwitch.max.us");
        assertThat(e1.metrics()).allSatisfy(m -> assertThat(m.better()).isEqualTo(SweepDefinition.Direction.LOWER));
        SweepDefinition e2cpu = ScenarioSweep.of(BuiltInScenarios.byId("E2", false).orElseThrow(), 2);
        assertThat(e2cpu.metrics()).extracting(SweepDefinition.Metric::name)
                .containsExactly("vms.1.cpuAllVcpus.s", "vms.2.cpuAllVcpus.s", "vcpus.1.cpu.s", "vcpus.0.cpu.s",
                        "vmHeadline.VM1");
        // the CPU seconds are compared as shares of the run: the reference row is the run's length
        assertThat(e2cpu.published().reference().row()).isEqualTo(E2Rebalance.E2_RUN_LENGTH);
        assertThat(ScenarioSweep.needsAudit(ScenarioSweep.of(BuiltInScenarios.byId("E3", false).orElseThrow(), 1))).isTrue();
        assertThat(ScenarioSweep.needsAudit(e1)).isFalse();
        assertThat(List.of(ScenarioSweep.of(BuiltInScenarios.byId("E4", false).orElseThrow(), 0).seeds()))
                .containsExactly(List.of(4L, 5L, 6L));
    }
}
