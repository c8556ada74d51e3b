package io.schedlab.engine.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.Engine;
import io.schedlab.engine.scenarios.ScenarioResult.TableResult;
import io.schedlab.engine.spec.Limits;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The model against the published numbers (read from the test resource {@code published/seed-posts.json}),
 * on the shortened (quick) scenarios: effect sizes and shapes, not seconds.
 */
class FidelityTest {
    private static final Engine ENGINE = Engine.standard();
    private static TableResult e2;
    private static List<TableResult> e5;

    @BeforeAll
    static void runScenarios() {
        ScenarioRunner runner = ScenarioRunner.of(ENGINE, Limits.defaults());
        e2 = runner.run(BuiltInScenarios.byId("E2", true).orElseThrow(), line -> { }).tables().get(0);
        e5 = runner.run(BuiltInScenarios.byId("E5", true).orElseThrow(), line -> { }).tables();
    }

    @Test
    void e2StaticPlacementDoublesTheTimeAndCacheRefillsAddToIt() {
        // The published effect (1.29: 3 min 40 s against 1 min 36 s) is not reached with one set of defaults
        // (docs/fidelity.md): sharing the pCPU doubles the time and the refills after each other VM's slice
        // add a little. The effect must stay at least the CPU share's and not exceed the published one.
        double publishedEffect = PublishedNumbers.e2SharedSeconds() / PublishedNumbers.e2PinnedSeconds() - 1;
        for (String vm : List.of("VM1", "VM3")) {
            double effect = e2.cell("static, both on pCPU 1", vm).mean() / e2.cell(E2Rebalance.E2_PINNED, vm).mean() - 1;
            assertThat(effect).as(vm + ": static/pinned - 1 (published %.3f)", publishedEffect)
                    .isGreaterThan(1.0).isLessThanOrEqualTo(publishedEffect);
        }
    }

    @Test
    void e5PerSocketIsSlowerThanPerCoreWithFourVcpusOnceTwoJobsRun() {
        TableResult four = e5.get(0);
        // The published per-socket penalty at make -j 1 (100 vs 82 s) has no mechanism in the model yet:
        // one runnable thread is not slowed by placement (docs/fidelity.md). Every N from 2 on:
        for (int n : PublishedNumbers.e5N()) {
            double perCore = four.cell(String.valueOf(n), "credit2 per-core").mean();
            double perSocket = four.cell(String.valueOf(n), "credit2 per-socket").mean();
            if (n == 1) {
                assertThat(perSocket).as("make -j 1").isCloseTo(perCore, within(perCore * 0.02));
            } else {
                assertThat(perSocket).as("make -j " + n).isGreaterThan(perCore * 1.05);
            }
        }
    }

    @Test
    void e5CreditIsWithinTenPercentOfPerCore() {
        for (TableResult t : e5) {
            for (int n : PublishedNumbers.e5N()) {
                double perCore = t.cell(String.valueOf(n), "credit2 per-core").mean();
                assertThat(t.cell(String.valueOf(n), "credit").mean()).as(t.table().caption() + ", make -j " + n)
                        .isCloseTo(perCore, within(perCore * 0.10));
            }
        }
    }

    @Test
    void e5TimesDoNotGrowWithNUpToTheVcpuCount() {
        int[] vcpus = {4, 8};
        for (int i = 0; i < e5.size(); i++) {
            TableResult t = e5.get(i);
            for (String column : t.table().columns()) {
                double previous = Double.MAX_VALUE;
                for (int n : PublishedNumbers.e5N()) {
                    if (n > vcpus[i]) {
                        break;
                    }
                    double seconds = t.cell(String.valueOf(n), column).mean();
                    assertThat(seconds).as(vcpus[i] + " vCPUs, " + column + ", make -j " + n)
                            .isLessThanOrEqualTo(previous);
                    previous = seconds;
                }
            }
        }
    }
}
