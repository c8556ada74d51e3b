package io.schedlab.engine.semantics;

import static io.schedlab.engine.semantics.SemanticsSpecs.host;
import static io.schedlab.engine.semantics.SemanticsSpecs.loop;
import static io.schedlab.engine.semantics.SemanticsSpecs.run;
import static io.schedlab.engine.semantics.SemanticsSpecs.sched;
import static io.schedlab.engine.semantics.SemanticsSpecs.spec;
import static io.schedlab.engine.semantics.SemanticsSpecs.vm;
import static io.schedlab.engine.semantics.SemanticsSpecs.vmResult;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Seconds;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VcpuResult;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Weights, caps and soft affinity through Engine.run for credit and credit2. */
class SharesAndCapsTest {

    @ParameterizedTest
    @ValueSource(strings = {"credit", "credit2"})
    void weightsTwoToOneGiveTwoToOneSharesOnOnePcpu(String policy) {
        ResultDocument d = run(spec(host(1, 1, 1), sched(policy, null), 30, StopCondition.DURATION,
                List.of(loop("A", 1, 512, null, List.of(0), 0), loop("B", 1, 256, null, List.of(0), 0)), List.of()));
        double ratio = Seconds.of(vmResult(d, "A").cpuNanosAllVcpus()) / Seconds.of(vmResult(d, "B").cpuNanosAllVcpus());
        assertThat(ratio).isBetween(2.0 * 0.98, 2.0 * 1.02);
        // weighted fairness: CPU in proportion to weight is fair, though the raw shares are 2:1 (Jain 0.9)
        assertThat(d.fairness().jainIndex()).isGreaterThan(0.999);
    }

    @ParameterizedTest
    @ValueSource(strings = {"credit", "credit2"})
    void weightsTwoToOneGiveTwoToOneSharesAcrossTwoPcpus(String policy) {
        ResultDocument d = run(spec(host(1, 2, 1), sched(policy, null), 30, StopCondition.DURATION,
                List.of(loop("A", 2, 512, null, List.of(0, 1), 0), loop("B", 2, 256, null, List.of(0, 1), 0)),
                List.of()));
        double ratio = Seconds.of(vmResult(d, "A").cpuNanosAllVcpus()) / Seconds.of(vmResult(d, "B").cpuNanosAllVcpus());
        assertThat(ratio).isBetween(2.0 * 0.98, 2.0 * 1.02);
    }

    @ParameterizedTest
    @ValueSource(strings = {"credit", "credit2"})
    void capOfFiftyPercentHolds(String policy) {
        ResultDocument d = run(spec(host(1, 2, 1), sched(policy, null), 30, StopCondition.DURATION,
                List.of(loop("A", 1, null, 50, List.of(0), 0)), List.of()));
        assertThat(Seconds.of(vmResult(d, "A").cpuNanosAllVcpus()) / 30.0).isBetween(0.49, 0.51);
    }

    @ParameterizedTest
    @ValueSource(strings = {"credit", "credit2"})
    void softAffinityIsHonouredWhenThereIsRoom(String policy) {
        // Two idle pCPUs (2, 3) are free: the soft-affine one is used, whichever it is.
        assertThat(fractionOnPcpu3(policy, List.of(3))).isGreaterThan(0.9);
        assertThat(fractionOnPcpu3(policy, List.of(2))).isLessThan(0.1);
    }

    private static VmSpec pinnedLoops(String name, int vcpus, List<Integer> hard) {
        return new VmSpec(name, vcpus, null, null, hard, null, null, null, null, hard, null,
                new WorkloadSpec("cpu-loop", Map.of("threads", vcpus, "workSeconds", 0.0)));
    }

    /** A waking build (many short jobs with I/O waits) beside two loops pinned to pCPUs 0-1 of a 4-pCPU host. */
    private static double fractionOnPcpu3(String policy, List<Integer> soft) {
        ResultDocument d = run(spec(host(1, 4, 1), sched(policy, null), 60, StopCondition.ALL_COMPLETE,
                List.of(pinnedLoops("busy", 2, List.of(0, 1)),
                        vm("soft", 1, soft, List.of(0), "parallel-build",
                                Map.of("jobs", 200, "parallelism", 1, "jobMeanMs", 10.0, "serialTailMs", 0.0))),
                List.of()));
        VcpuResult v = vmResult(d, "soft").vcpus().get(0);
        double on3 = v.ranOn().stream().filter(t -> t.pcpu() == 3).mapToDouble(t -> Seconds.of(t.nanos())).sum();
        return on3 / Seconds.of(v.cpuNanos());
    }
}
