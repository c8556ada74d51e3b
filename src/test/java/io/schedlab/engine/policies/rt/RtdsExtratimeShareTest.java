package io.schedlab.engine.policies.rt;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Seconds;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.VmSpec;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * Xen 463b958317 (4.10, "towards work conserving RTDS"): spare time goes to the extratime vCPUs in proportion to
 * their utilisations. The mechanism (rt.c burn_budget): a vCPU with extratime that used up its budget moves to
 * priority level + 1 with its full budget again, and the queue is sorted by level, then deadline
 * (compare_unit_priority); so the spare time is handed out in rounds of one budget each, 2 : 4 for servers
 * of 2 and 4 ms. The proportion holds when the spare time spans whole rounds; a spare shorter than one round
 * is split by the order within it.
 */
class RtdsExtratimeShareTest {

    private static double[] shares(long periodUs, long budgetA, long budgetB) {
        List<VmSpec> vms = List.of(RtRuns.loop("a", periodUs, budgetA, true), RtRuns.loop("b", periodUs, budgetB, true));
        ResultDocument doc = RtRuns.run(RtRuns.spec("rtds", null, 1, 2.0, vms, List.of()));
        return new double[] {Seconds.of(doc.vms().get(0).cpuNanosAllVcpus()) / 2.0,
            Seconds.of(doc.vms().get(1).cpuNanosAllVcpus()) / 2.0};
    }

    @Test
    void spareTimeSpanningManyRoundsIsSplitInProportionToUtilisation() {
        // 2/100 and 4/100: 94 ms spare per period, about 15 rounds of 2 + 4 ms
        double[] s = shares(100_000, 2_000, 4_000);
        double spareA = s[0] - 0.02;
        double spareB = s[1] - 0.04;
        assertThat(s[0] + s[1]).isCloseTo(1.0, Offset.offset(0.01));
        assertThat(spareB / spareA).isCloseTo(2.0, Offset.offset(0.15));
    }

    @Test
    void aSpareShorterThanOneRoundGivesEachOneMoreBudgetInTurn() {
        // 2/10 and 4/10: 4 ms spare, less than one round (6 ms). At level 1 both share the deadline; a vCPU whose
        // budget ran out does not keep the pCPU against an equal one (rt_schedule keeps scurr only when
        // compare_unit_priority > 0), so a's second budget (2 ms) runs, then b's until the period ends: 2 : 2.
        double[] s = shares(10_000, 2_000, 4_000);
        assertThat(s[0]).isCloseTo(0.4, Offset.offset(0.01));
        assertThat(s[1]).isCloseTo(0.6, Offset.offset(0.01));
    }
}
