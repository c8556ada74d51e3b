package io.schedlab.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.Engine;
import io.schedlab.engine.catalogue.ScenarioResult.TableResult;
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
    private static List<TableResult> e2Tables;
    private static List<TableResult> e5;

    @BeforeAll
    static void runScenarios() {
        ScenarioRunner runner = ScenarioRunner.of(ENGINE, Limits.defaults());
        e2Tables = runner.run(BuiltInScenarios.byId("E2", true).orElseThrow(), line -> { }).tables();
        e2 = e2Tables.get(0);
        e5 = runner.run(BuiltInScenarios.byId("E5", true).orElseThrow(), line -> { }).tables();
    }

    @Test
    void e2StaticPlacementDoublesTheTimeAndCacheRefillsAddToIt() {
        // With 30 ms slices (the static stand-in) sharing the pCPU doubles the time; a refill per 30 ms slice adds
        // well under 1%, so the effect is the CPU share's (about 1) and below the published one.
        double publishedEffect = PublishedNumbers.e2SharedSeconds() / PublishedNumbers.e2PinnedSeconds() - 1;
        for (String vm : List.of("VM1", "VM3")) {
            double effect = e2.cell("static, both on pCPU 1", vm).mean() / e2.cell(E2Rebalance.E2_PINNED, vm).mean() - 1;
            assertThat(effect).as(vm + ": static/pinned - 1 (published %.3f)", publishedEffect)
                    .isGreaterThan(0.95).isLessThanOrEqualTo(publishedEffect);
        }
    }

    @Test
    void e2UnderXen30sSedfTheRefillsAfterEveryQuantumBringTheEffectWithinFifteenPercentOfThePublishedOne() {
        // Xen 3.0's sedf serves the two best-effort loops in 500 us quanta: each starts with the other VM's
        // footprint in pCPU 1's cache and reloads its own (the extra misses of a 2 MiB set in a 1 MiB cache, from
        // the 2005 host's 6.4 GB/s memory). The effect is within 15% of the published one; the 30 ms stand-in
        // stays below it.
        double publishedEffect = PublishedNumbers.e2SharedSeconds() / PublishedNumbers.e2PinnedSeconds() - 1;
        TableResult xen30 = e2Tables.get(1);
        for (String vm : List.of("VM1", "VM3")) {
            double effect = xen30.cell(E2Rebalance.E2_XEN30_SHARED, vm).mean()
                    / xen30.cell(E2Rebalance.E2_XEN30_PINNED, vm).mean() - 1;
            double stand = e2.cell("static, both on pCPU 1", vm).mean() / e2.cell(E2Rebalance.E2_PINNED, vm).mean() - 1;
            assertThat(effect).as(vm + ": sedf shared/pinned - 1 (published %.3f)", publishedEffect)
                    .isBetween(publishedEffect * 0.85, publishedEffect * 1.15);
            assertThat(stand).as(vm + ": 30 ms slices").isLessThan(publishedEffect);
        }
    }

    @Test
    void e2TheLoopsNeedMoreCpuThanTheirWorkAsXmVcpuListShowed() {
        // the post: ~109.5 s of CPU for 96 s of work (+14%) while sharing; quick runs do 9.6 s of work. The
        // reloads account for about three quarters of it (docs/fidelity.md): held within 30%.
        TableResult cpu = e2Tables.get(2);
        double work = 9.6;
        double publishedExtra = PublishedNumbers.e2CpuSeconds("VM1") / PublishedNumbers.e2PinnedSeconds() - 1;
        for (String vm : List.of("VM1", "VM3")) {
            double extra = cpu.cell(vm, E2Rebalance.E2_CPU_XEN30).mean() / work - 1;
            assertThat(extra).as(vm + " under sedf (published %.3f)", publishedExtra)
                    .isBetween(publishedExtra * 0.7, publishedExtra * 1.3);
            assertThat(cpu.cell(vm, E2Rebalance.E2_CPU_STATIC).mean() / work - 1).as(vm + " with 30 ms slices")
                    .isLessThan(publishedExtra);
        }
    }

    @Test
    void e5PerSocketIsSlowerThanPerCoreWithFourVcpusOnceTwoJobsCanMeetOnSiblings() {
        TableResult four = e5.get(0);
        // Xen 4.6 creates the 4 vCPUs on CPUs 7, 0, 1, 2 (cores 3, 0, 0, 1). The guest forks each job onto the
        // first idle vCPU after its last one, so from make -j 2 the jobs pass over all four vCPUs and the two
        // created on core 0's siblings are busy together part of the time: per-core queues balance one of them
        // to an idle core, a socket-wide queue keeps both where they were created. The published penalty at
        // -j 1 (100 vs 82 s) has no mechanism in the model (docs/fidelity.md): one job alone is not slowed.
        for (int n : PublishedNumbers.e5N()) {
            double perCore = four.cell(String.valueOf(n), "credit2 per-core").mean();
            double perSocket = four.cell(String.valueOf(n), "credit2 per-socket").mean();
            if (n == 1) {
                assertThat(perSocket).as("make -j " + n).isCloseTo(perCore, within(perCore * 0.02));
            } else {
                assertThat(perSocket).as("make -j " + n).isGreaterThan(perCore * 1.05);
            }
        }
    }

    @Test
    void e5PerSocketsPenaltyComesFromTheHostNumberingItsSiblingsTogether() {
        // The same 4-vCPU runs on the host numbered cores first: CPUs 7, 0, 1, 2 are four cores, nothing pairs the
        // vCPUs on siblings and per-socket is as fast as per-core (docs/fidelity.md: the post gives no numbering).
        TableResult coresFirst = e5.get(2);
        for (int n : PublishedNumbers.e5N()) {
            double perCore = coresFirst.cell(String.valueOf(n), "credit2 per-core").mean();
            assertThat(coresFirst.cell(String.valueOf(n), "credit2 per-socket").mean()).as("make -j " + n)
                    .isCloseTo(perCore, within(perCore * 0.02));
        }
    }

    @Test
    void e5CreditIsWithinTenPercentOfPerCoreWithFourVcpusAndNeverSlowerWithEight() {
        for (int n : PublishedNumbers.e5N()) {
            double perCore = e5.get(0).cell(String.valueOf(n), "credit2 per-core").mean();
            assertThat(e5.get(0).cell(String.valueOf(n), "credit").mean()).as("4 vCPUs, make -j " + n)
                    .isCloseTo(perCore, within(perCore * 0.10));
        }
        // 8 vCPUs on 8 hardware threads: forked jobs meet on sibling vCPUs that per-core credit2 keeps in one
        // core's queue, while credit's wake-up pick spreads them over idle cores. Published credit / per-core:
        // 0.95-1.04; the model's credit is up to 16% faster at -j 2, 4 (docs/fidelity.md) and never slower.
        for (int n : PublishedNumbers.e5N()) {
            double perCore = e5.get(1).cell(String.valueOf(n), "credit2 per-core").mean();
            assertThat(e5.get(1).cell(String.valueOf(n), "credit").mean()).as("8 vCPUs, make -j " + n)
                    .isBetween(perCore * 0.80, perCore * 1.10);
        }
    }

    @Test
    void e5TimesDoNotGrowWithNUpToTheVcpuCount() {
        int[] vcpus = {4, 8, 4}; // the third table: the 4-vCPU guest on a host numbered cores first
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
