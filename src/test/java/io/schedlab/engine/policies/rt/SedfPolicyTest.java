package io.schedlab.engine.policies.rt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.schedlab.engine.Seconds;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.VcpuSchedParamsSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** sedf and gedf on the real simulator (self-check on): EDF order, slices, weights, extra time, per-pCPU queues. */
class SedfPolicyTest {
    private static final long MS = 1_000_000L;

    private static VmSpec server(String name, long periodUs, long sliceUs, boolean extra) {
        return new VmSpec(name, 1, null, null, null, null, null, null, null, null, null,
                new WorkloadSpec("cpu-loop", Map.of("threads", 1, "workSeconds", 0)),
                Map.of("periodUs", periodUs, "sliceUs", sliceUs, "extra", extra), null);
    }

    /**
     * EDF order replayed from the trace (see {@link EdfOrderCheck}). sEDF's first wake-up sets the deadline to
     * now + slice (sedf_wake), so vCPU i's periods end at slice_i + k period_i.
     */
    @ParameterizedTest
    @CsvSource({"gedf,1", "gedf,2", "sedf,1"})
    void eachSwitchPicksTheEarliestDeadlineWithSliceLeft(String policy, int pcpus) {
        long[] period = {10 * MS, 14 * MS, 33 * MS, 22 * MS};
        long[] slice = {2 * MS, 4 * MS, 9 * MS, 5 * MS};
        int count = pcpus == 1 ? 3 : 4;
        List<VmSpec> vms = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            vms.add(server("v" + i, period[i] / 1000, slice[i] / 1000, false));
        }
        List<RtRuns.Switch> trace = RtRuns.switches(RtRuns.spec(policy, null, pcpus, 0.3, vms, List.of()));
        int checked = EdfOrderCheck.check(trace, pcpus, Arrays.copyOf(period, count), Arrays.copyOf(slice, count),
                Arrays.copyOf(slice, count));
        assertThat(checked).isGreaterThan(20);
    }

    /** Each vCPU gets its slice per period and, with extra off, nothing more. */
    @ParameterizedTest
    @CsvSource({"gedf", "sedf"})
    void slicesAreDeliveredAndExtraTimeIsOptional(String policy) {
        ResultDocument strict = RtRuns.run(RtRuns.spec(policy, null, 1, 1.0,
                List.of(server("a", 10_000, 3_000, false), server("b", 20_000, 4_000, false)), List.of()));
        assertThat(Seconds.of(strict.vms().get(0).cpuNanosAllVcpus())).isCloseTo(0.3, offset(0.005));
        assertThat(Seconds.of(strict.vms().get(1).cpuNanosAllVcpus())).isCloseTo(0.2, offset(0.005));
        assertThat(strict.policyStatistics().get("deadlineMisses")).isZero();
        ResultDocument extra = RtRuns.run(RtRuns.spec(policy, null, 1, 1.0,
                List.of(server("a", 10_000, 3_000, true), server("b", 20_000, 4_000, true)), List.of()));
        double total = Seconds.of(extra.vms().get(0).cpuNanosAllVcpus()) + Seconds.of(extra.vms().get(1).cpuNanosAllVcpus());
        assertThat(total).isGreaterThan(0.95);
        assertThat(extra.policyStatistics().get("extraTimeNanos")).isGreaterThan(400 * MS);
    }

    /**
     * sedf_adjust_weights: weights 1 and 3 share WEIGHT_PERIOD - WEIGHT_SAFETY (95 of every 100 ms): slices
     * 23.75 and 71.25 ms. The first period ends at the slice (sedf_wake), so in 2 s light gets 20 slices and
     * heavy 20 slices plus 28.75 ms of a 21st period begun at 1971.25 ms.
     */
    @Test
    void weightsShareTheWeightPeriod() {
        VmSpec light = new VmSpec("light", 1, null, null, null, null, null, null, null, null, null,
                new WorkloadSpec("cpu-loop", Map.of("threads", 1, "workSeconds", 0)), null,
                List.of(new VcpuSchedParamsSpec(0, Map.of("weight", 1, "extra", false))));
        VmSpec heavy = new VmSpec("heavy", 1, null, null, null, null, null, null, null, null, null,
                new WorkloadSpec("cpu-loop", Map.of("threads", 1, "workSeconds", 0)), Map.of("weight", 3,
                        "extra", false), null);
        ResultDocument doc = RtRuns.run(RtRuns.spec("sedf", null, 1, 2.0, List.of(light, heavy), List.of()));
        assertThat(Seconds.of(doc.vms().get(0).cpuNanosAllVcpus())).isCloseTo(20 * 0.02375, offset(0.002));
        assertThat(Seconds.of(doc.vms().get(1).cpuNanosAllVcpus())).isCloseTo(20 * 0.07125 + 0.02875, offset(0.002));
    }

    /** sedf keeps each vCPU on its pCPU (per-pCPU queues, no stealing); gedf's global queue moves them. */
    @Test
    void onlyTheGlobalQueueMigrates() {
        List<VmSpec> vms = List.of(new VmSpec("g", 3, null, null, null, null, null, null, null, null, null,
                new WorkloadSpec("cpu-loop", Map.of("threads", 3, "workSeconds", 0)),
                Map.of("periodUs", 10_000, "sliceUs", 5_000, "extra", true), null));
        ResultDocument sedf = RtRuns.run(RtRuns.spec("sedf", null, 2, 1.0, vms, List.of()));
        ResultDocument gedf = RtRuns.run(RtRuns.spec("gedf", null, 2, 1.0, vms, List.of()));
        assertThat(sedf.totals().migrations().total()).isZero();
        assertThat(gedf.totals().migrations().total()).isPositive();
    }
}
