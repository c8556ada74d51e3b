package io.schedlab.engine.policies.credit2;

import static io.schedlab.engine.policies.PolicyRuns.loops;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.Validation;
import io.schedlab.engine.policies.PolicyRuns;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.Violation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * credit2's CSCHED2_MAX_TIMER by release: MILLISECS(2) up to 4.7 (sched_credit2.c RELEASE-4.7.0),
 * CSCHED2_CREDIT_INIT (10 ms) from 4.8 (da92ec5bd1); and up to 4.6 csched2_runtime gives the idle vCPU
 * that timer too, so an idle pCPU re-runs the scheduler every 2 ms (until 2c6f317a2b, in 4.7).
 */
class Credit2LegacyMaxTimerTest {

    private static double switchesPerSecond(String version) {
        ResultDocument doc = PolicyRuns.run("credit2", Map.of("xenVersion", version), 1, 1, 1, 2.0,
                List.of(loops("a", 256, 0, 1), loops("b", 256, 0, 1)));
        return doc.totals().contextSwitches() / 2.0;
    }

    @Test
    void twoEqualLoopsOnOnePcpuSwitchEveryTwoMillisecondsUpTo47AndEveryTenFrom48() {
        assertThat(switchesPerSecond("4.6")).as("4.6: one switch per 2 ms").isBetween(450.0, 550.0);
        assertThat(switchesPerSecond("4.7")).as("4.7: still 2 ms").isBetween(450.0, 550.0);
        assertThat(switchesPerSecond("4.8")).as("4.8: one switch per 10 ms").isBetween(90.0, 110.0);
    }

    private static long decisions(String version) {
        // one loop on pCPU 0; pCPU 1 runs 10 ms of work first, then is idle for the rest of the second
        ResultDocument doc = PolicyRuns.run("credit2", Map.of("xenVersion", version), 1, 2, 1, 1.0,
                List.of(loops("a", 256, 0, 1, 0), PolicyRuns.once("b", 256, 0.01, 1)));
        return doc.distributions().decision().count();
    }

    @Test
    void anIdlePcpuReschedulesEveryMaxTimerIn46AndStaysIdleFrom47() {
        long v46 = decisions("4.6");
        long v47 = decisions("4.7");
        // both pCPUs decide every 2 ms in 4.6 (the loop's slice and the idle timer): ~1,000 in the second;
        // in 4.7 only the loop's pCPU does: ~500
        assertThat(v46).as("4.6").isBetween(900L, 1100L);
        assertThat(v47).as("4.7").isBetween(450L, 560L);
    }

    private static io.schedlab.engine.params.Params params(String version) {
        Map<String, Object> values = new java.util.TreeMap<>();
        Credit2Params.specs().forEach(spec -> values.put(spec.name(), spec.defaultValue()));
        values.put("xenVersion", version);
        return new io.schedlab.engine.params.Params(values);
    }

    @Test
    void theCostEstimateCountsTheIdleTimerOf46AndTheReleasesSlice() {
        Credit2CostHints hints = new Credit2CostHints();
        assertThat(hints.periodicEventsPerPcpuSecond(params("4.6"))).as("4.6: one idle decision per 2 ms")
                .isEqualTo(500.0);
        assertThat(hints.periodicEventsPerPcpuSecond(params("4.7"))).isZero();
        // a CPU-bound slice is creditInitUs / 3 within [minTimerUs, max timer]: 2 ms caps it in 4.6
        assertThat(hints.sliceSeconds(params("4.6"))).isEqualTo(0.002);
        assertThat(hints.sliceSeconds(params("latest"))).isCloseTo(0.003333, org.assertj.core.api.Assertions.within(1e-6));
    }

    @Test
    void anExplicitMaxTimerOverridesTheVersionsAndOneBelow100UsIsRejectedAtItsPointer() {
        Map<String, Object> params = Map.of("xenVersion", "4.6", "maxTimerUs", 10_000);
        ResultDocument doc = PolicyRuns.run("credit2", params, 1, 1, 1, 2.0,
                List.of(loops("a", 256, 0, 1), loops("b", 256, 0, 1)));
        assertThat(doc.totals().contextSwitches() / 2.0).as("4.6 with maxTimerUs 10000").isBetween(90.0, 110.0);

        Engine engine = Engine.standard();
        Validation bad = engine.validate(PolicyRuns.spec("credit2", Map.of("maxTimerUs", 50), 1, 1, 1, 1.0,
                List.of(loops("a", 256, 0, 1))), Limits.defaults());
        assertThat(bad.violations()).extracting(Violation::pointer).containsExactly("/scheduler/params/maxTimerUs");
        for (int ok : List.of(-1, 100)) {
            Validation v = engine.validate(PolicyRuns.spec("credit2", Map.of("maxTimerUs", ok), 1, 1, 1, 1.0,
                    List.of(loops("a", 256, 0, 1))), Limits.defaults());
            assertThat(v.violations()).as("maxTimerUs " + ok).isEmpty();
        }
    }
}
