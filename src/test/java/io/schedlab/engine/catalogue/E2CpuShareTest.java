package io.schedlab.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.Engine;
import io.schedlab.engine.catalogue.ScenarioResult.Cell;
import io.schedlab.engine.catalogue.ScenarioResult.TableResult;
import io.schedlab.engine.spec.Limits;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * E2's CPU-seconds table (the post's xm vcpu-list while the loops share pCPU 1) is scored as a share of
 * the run: the totals grow with the run's length, the shares do not, so the scorecard's convergence check
 * at 3x the length compares the model with itself, not two run lengths.
 */
class E2CpuShareTest {
    private static final Engine ENGINE = Engine.standard();
    private static final int CPU_TABLE = 2;
    private static TableResult base;
    private static TableResult longer;

    @BeforeAll
    static void runTheCpuTableAtTwoLengths() {
        Scenario e2 = BuiltInScenarios.byId("E2", true).orElseThrow();
        Scenario cpuOnly = new Scenario(e2.id(), e2.title(), e2.setup(), e2.expectedShape(),
                List.of(e2.tables().get(CPU_TABLE)));
        ScenarioRunner runner = ScenarioRunner.of(ENGINE, Limits.defaults());
        base = runner.run(cpuOnly, line -> { }).tables().get(0);
        longer = runner.run(RunLength.scaled(cpuOnly, Scorer.LONG_FACTOR, ENGINE.registry()), line -> { }).tables().get(0);
    }

    @Test
    void theLoopsCpuSecondsGrowWithTheRunButTheirShareOfItDoesNot() {
        for (String column : List.of(E2Rebalance.E2_CPU_STATIC, E2Rebalance.E2_CPU_XEN30)) {
            for (String vm : List.of("VM1", "VM3")) {
                Cell shortCell = base.cell(vm, column);
                Cell longCell = longer.cell(vm, column);
                assertThat(longCell.mean() / shortCell.mean()).as(vm + ", " + column + ": CPU seconds at 3x")
                        .isGreaterThan(2.8);
                assertThat(longCell.ratio()).as(vm + ", " + column + ": share of the run at 3x")
                        .isCloseTo(shortCell.ratio(), within(0.01));
            }
        }
    }

    @Test
    void theLoopsAreScoredAgainstTheShareThePostsRunImpliesAtAnyLength() {
        for (String column : List.of(E2Rebalance.E2_CPU_STATIC, E2Rebalance.E2_CPU_XEN30)) {
            Cell vm1 = base.cell("VM1", column);
            assertThat(vm1.scored()).as("scored at quick size too: a share does not depend on the length").isTrue();
            assertThat(vm1.publishedRatio()).isCloseTo(PublishedNumbers.e2CpuSeconds("VM1")
                    / PublishedNumbers.e2SharedSeconds(), within(1e-9));
            // two loops sharing one pCPU beside a mostly idle dom0 vCPU: each gets just under half of it
            assertThat(vm1.ratio()).as(column + ": VM1's share of the run").isBetween(0.45, 0.5);
            assertThat(vm1.passes()).as(column).isTrue();
        }
    }

    @Test
    void dom0sCellsAreShownNotScoredAndTheCatalogueSaysWhatTheirPublishedFigureNeeds() {
        for (String column : List.of(E2Rebalance.E2_CPU_STATIC, E2Rebalance.E2_CPU_XEN30)) {
            Cell dom0 = base.cell("dom0 vCPU 1 (on pCPU 1)", column);
            assertThat(dom0.measured()).isTrue();
            assertThat(dom0.scored()).isFalse();
        }
        ValidationCatalogue.Case e2 = ValidationCatalogue.byId("E2").orElseThrow();
        assertThat(e2.unmodelled()).singleElement().satisfies(cell -> {
            assertThat(cell.cell()).contains("dom0");
            assertThat(cell.published()).contains("4.2 s");
            assertThat(cell.needs()).contains("xm");
        });
    }
}
