package io.schedlab.engine.hypervisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.TestSpecs;
import io.schedlab.engine.Validation;
import io.schedlab.engine.policies.PolicyRuns;
import io.schedlab.engine.output.Distributions;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VcpuResult;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.TraceSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each hypervisor's schedule path through the real simulator. Xen runs the policy's context_saved after every
 * switch away from a vCPU (xen/common/sched/core.c sched_context_switched -> unit_context_saved), a locked step
 * with its own cost; Linux's __schedule() has none (kernel/sched/core.c), so under KVM a switch costs the
 * decision and the switch only. Both finish an affinity migration after the moved vCPU left its pCPU.
 */
class SchedulePathPerHypervisorTest {
    private static final Engine ENGINE = Engine.standard().withSelfCheck();
    private static final double SECONDS = 0.2;

    /** Two endless loops sharing pCPU 0: the pCPU switches between them all run long. */
    private static ResultDocument twoLoopsOnOnePcpu(String policy) {
        return PolicyRuns.run(policy, Map.of(), 1, 1, 1, SECONDS,
                List.of(PolicyRuns.loops("a", 256, 0, 1, 0), PolicyRuns.loops("b", 256, 0, 1, 0)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"credit", "credit2"})
    void xenSavesTheContextOfEveryVcpuSwitchedAway(String policy) {
        Distributions d = twoLoopsOnOnePcpu(policy).distributions();

        assertThat(d.contextSwitch().count()).as("switches").isGreaterThanOrEqualTo(5);
        // Only the first switch of the run starts from idle; every other one leaves a vCPU to save.
        assertThat(d.contextSaved().count()).as("context_saved steps").isEqualTo(d.contextSwitch().count() - 1);
        assertThat(d.contextSaved().p50Nanos()).as("each holds the lock").isPositive();
    }

    @ParameterizedTest
    @ValueSource(strings = {"cfs", "eevdf"})
    void kvmSwitchesWithoutAContextSavedStep(String policy) {
        ResultDocument doc = twoLoopsOnOnePcpu(policy);
        Distributions d = doc.distributions();

        assertThat(d.contextSwitch().count()).as("switches").isGreaterThanOrEqualTo(5);
        assertThat(d.contextSaved().count()).as("context_saved steps").isZero();
        assertThat(d.contextSaved().meanNanos()).as("no samples, no mean").isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"credit", "cfs"})
    void aRunningVcpuPinnedAwayMovesOnceItLeftItsPcpu(String policy) {
        ExperimentSpec raw = new ExperimentSpec("pin away", null, 3L, SECONDS, ExperimentSpec.StopCondition.DURATION,
                new HostSpec(1, 2, 1, null, null, null, null), new SchedulerSpec(policy, Map.of()), null,
                List.of(PolicyRuns.loops("a", 256, 0, 1, 0)), List.of(TestSpecs.pin(SECONDS / 2, "a", 0, 1)),
                new TraceSpec(false, null));
        Validation v = ENGINE.validate(raw, Limits.defaults());
        assertThat(v.violations()).as("violations").isEmpty();

        VcpuResult vcpu = PolicyRuns.vm(ENGINE.run(v.normalized(), Limits.defaults(), RunControl.NONE), "a")
                .vcpus().get(0);

        assertThat(vcpu.ranOn()).extracting(VcpuResult.PcpuTime::pcpu).containsExactly(0, 1);
        assertThat(vcpu.ranOn().get(1).nanos()).as("time on pcpu1 after the pin")
                .isGreaterThan((long) (SECONDS / 2 * 1e9) - 1_000_000);
        assertThat(vcpu.migrations().total()).isEqualTo(1);
    }
}
