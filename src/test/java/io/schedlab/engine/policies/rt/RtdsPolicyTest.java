package io.schedlab.engine.policies.rt;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Seconds;
import io.schedlab.engine.Validation;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.TimelineAction;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** RTDS on the real simulator (self-check on): EDF order, deadlines of feasible and infeasible sets, parameters. */
class RtdsPolicyTest {
    private static final long MS = 1_000_000L;

    /** EDF order from the trace (see {@link EdfOrderCheck}); every vCPU is released when its VM starts, at 0. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void eachSwitchPicksTheEarliestDeadlineWithBudget(int pcpus) {
        long[] period = {10 * MS, 14 * MS, 33 * MS, 22 * MS};
        long[] budget = {2 * MS, 4 * MS, 9 * MS, 5 * MS};
        int count = pcpus == 1 ? 3 : 4;
        List<VmSpec> vms = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            vms.add(RtRuns.loop("v" + i, period[i] / 1000, budget[i] / 1000, false));
        }
        List<RtRuns.Switch> trace = RtRuns.switches(RtRuns.spec("rtds", null, pcpus, 0.3, vms, List.of()));
        assertThat(trace).hasSizeGreaterThan(20);
        int checked = EdfOrderCheck.check(trace, pcpus, java.util.Arrays.copyOf(period, count),
                java.util.Arrays.copyOf(budget, count), new long[count]);
        assertThat(checked).isGreaterThan(20);
    }

    /**
     * Six 4 ms / 10 ms servers on 4 pCPUs: U = 2.4, within the global-EDF bound U <= m - (m - 1) U_max = 2.8
     * (Goossens, Funk, Baruah 2003; U <= m alone does not suffice for global EDF). Event driven (4.7+): no
     * miss; with the 1 ms quantum of 4.5 a miss leaves at most one quantum of budget.
     */
    @ParameterizedTest
    @ValueSource(strings = {"latest", "4.7", "4.5"})
    void aFeasibleSetMissesNoDeadlineBeyondOneTick(String version) {
        ResultDocument doc = RtRuns.run(RtRuns.spec("rtds", Map.of("xenVersion", version), 4, 1.0,
                List.of(RtRuns.loops("rt", 6, 10_000, 4_000, false)), List.of()));
        Map<String, Long> stats = doc.policyStatistics();
        assertThat(stats.get("replenishments")).isGreaterThanOrEqualTo(6 * 99);
        if (version.equals("4.5")) {
            assertThat(stats.get("maxMissedBudgetNanos")).isLessThanOrEqualTo(MS);
        } else {
            assertThat(stats.get("deadlineMisses")).isZero();
        }
        // every server got its budget: 4 ms of every 10 ms
        doc.vms().get(0).vcpus().forEach(vc -> assertThat(Seconds.of(vc.cpuNanos())).isCloseTo(0.4, org.assertj.core.data.Offset.offset(0.01)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"latest", "4.5"})
    void anInfeasibleSetReportsMisses(String version) {
        ResultDocument doc = RtRuns.run(RtRuns.spec("rtds", Map.of("xenVersion", version), 4, 1.0,
                List.of(RtRuns.loops("rt", 12, 10_000, 4_000, false)), List.of()));
        assertThat(doc.policyStatistics().get("deadlineMisses")).isGreaterThan(100);
        assertThat(doc.policyStatistics().get("maxMissedBudgetNanos")).isGreaterThan(MS);
        long perVcpu = doc.vms().get(0).vcpus().stream().mapToLong(vc -> vc.policyStatistics().get("deadlineMisses"))
                .sum();
        assertThat(perVcpu).isEqualTo(doc.policyStatistics().get("deadlineMisses"));
    }

    @Test
    void extratimeFillsIdleTimeOnlyFrom410() {
        List<VmSpec> vms = List.of(RtRuns.loops("rt", 2, 10_000, 2_000, true));
        double with = Seconds.of(RtRuns.run(RtRuns.spec("rtds", Map.of("xenVersion", "4.10"), 2, 0.5, vms, List.of()))
                .vms().get(0).cpuNanosAllVcpus());
        double before = Seconds.of(RtRuns.run(RtRuns.spec("rtds", Map.of("xenVersion", "4.9"), 2, 0.5, vms, List.of()))
                .vms().get(0).cpuNanosAllVcpus());
        assertThat(with).isGreaterThan(0.95);
        assertThat(before).isCloseTo(0.2, org.assertj.core.data.Offset.offset(0.01));
    }

    /** set-sched-params at 0.5 s raises one server's budget from 2 to 8 ms of 10: its CPU time follows. */
    @Test
    void setSchedParamsMidRunChangesTheShare() {
        List<VmSpec> vms = List.of(RtRuns.loop("a", 10_000, 2_000, false), RtRuns.loop("b", 10_000, 2_000, false));
        TimelineAction raise = new TimelineAction(0.5, TimelineAction.Kind.SET_SCHED_PARAMS, "a", 0, null, null,
                null, null, Map.of("budgetUs", 8_000));
        ResultDocument same = RtRuns.run(RtRuns.spec("rtds", null, 1, 1.0, vms, List.of()));
        ResultDocument raised = RtRuns.run(RtRuns.spec("rtds", null, 1, 1.0, vms, List.of(raise)));
        assertThat(Seconds.of(same.vms().get(0).cpuNanosAllVcpus())).isCloseTo(0.2, org.assertj.core.data.Offset.offset(0.01));
        assertThat(Seconds.of(raised.vms().get(0).cpuNanosAllVcpus())).isCloseTo(0.5, org.assertj.core.data.Offset.offset(0.01));
        assertThat(Seconds.of(raised.vms().get(1).cpuNanosAllVcpus())).isCloseTo(0.2, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void budgetAbovePeriodIsRejectedWithAPointer() {
        List<VmSpec> vms = List.of(RtRuns.loop("a", 10_000, 2_000, false), RtRuns.loop("b", 1_000, 2_000, false));
        TimelineAction bad = new TimelineAction(0.5, TimelineAction.Kind.SET_SCHED_PARAMS, "a", null, null, null,
                null, null, Map.of("periodUs", 5, "budgetUs", 9));
        Validation v = RtRuns.ENGINE.validate(RtRuns.spec("rtds", null, 1, 1.0, vms, List.of(bad)), Limits.defaults());
        assertThat(v.violations()).extracting(Violation::pointer).containsExactlyInAnyOrder(
                "/vms/1/vcpuSchedParams/0/params/budgetUs", "/timeline/0/params/periodUs",
                "/timeline/0/params/budgetUs");
    }
}
