package io.schedlab.engine.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * TLB shootdowns (the spinlock workload's {@code shootdowns}): the sender waits for every busy, running vCPU of its
 * VM to run the flush handler; idle vCPUs get no IPI; a target the host preempts before its handler is done holds
 * the sender until it runs again.
 */
class TlbShootdownTest {

    /** Records/s and spin time of the bench VM: {@code threads} threads on 4 vCPUs, alone or beside a CPU-bound VM. */
    private static VmResult run(int threads, int shootdowns, boolean besideHog) {
        return run(threads, shootdowns, besideHog, null);
    }

    private static VmResult run(int threads, int shootdowns, boolean besideHog, Map<String, Object> costs) {
        return EngineRuns.vmResult(document(threads, shootdowns, besideHog, costs), "bench");
    }

    private static ResultDocument document(int threads, int shootdowns, boolean besideHog, Map<String, Object> costs) {
        List<VmSpec> vms = new ArrayList<>();
        vms.add(EngineRuns.vm("bench", 4, null, null, null, "spinlock", Map.of("threads", threads, "locks", 64,
                "outsideUs", 50.0, "insideUs", 1.0, "cv", 0.0, "shootdowns", shootdowns)));
        if (besideHog) {
            vms.add(EngineRuns.vm("hog", 4, null, null, null, "cpu-loop", Map.of("threads", 4, "workSeconds", 0)));
        }
        ExperimentSpec raw = new ExperimentSpec("tlb", null, 5L, 0.2, StopCondition.DURATION,
                EngineRuns.host(1, 4, 1), new SchedulerSpec("cfs", Map.of("pleHandler", "upstream")), costs, vms,
                null, null);
        return EngineRuns.ENGINE.withSelfCheck().run(
                EngineRuns.ENGINE.validate(raw, Limits.defaults()).normalized(), Limits.defaults(), RunControl.NONE);
    }

    private static Map<String, Long> hypervisor(int shootdowns, Map<String, Object> costs) {
        return document(4, shootdowns, true, costs).hypervisorStatistics();
    }

    private static double records(VmResult r) {
        return r.headline().value();
    }

    @Test
    void aShootdownToRunningVcpusCostsAboutOneIpiPerRecord() {
        double without = records(run(4, 0, false));
        VmResult with = run(4, 1, false);
        assertThat(records(with) / without).as("each record waits for its flush IPIs").isLessThan(0.995)
                .isGreaterThan(0.9);
        assertThat(with.spinNanosAllVcpus()).as("senders spin in csd_lock_wait").isPositive();
    }

    @Test
    void idleVcpusAreInLazyTlbModeAndGetNoIpi() {
        // one thread on four vCPUs: the other three are idle, so the shootdown has no target and takes no time
        VmResult without = run(1, 0, false);
        VmResult with = run(1, 1, false);
        assertThat(records(with)).isEqualTo(records(without));
        assertThat(with.spinNanosAllVcpus()).isZero();
    }

    @Test
    void aTargetPreemptedInItsHandlerHoldsTheSenderAndIsAYieldCandidate() {
        // beside a CPU-bound VM, with a 100 us handler so that the host's slice ends land inside handlers: the
        // senders spin into pause-loop exits and yield to the preempted targets (in kernel mode, interrupts off);
        // without shootdowns only the rare collision of two threads on one of the 64 locks spins
        Map<String, Object> slowIpi = Map.of("ipiLatencyNanos", 100_000);
        long without = hypervisor(0, slowIpi).get("yieldToSucceeded");
        long with = hypervisor(1, slowIpi).get("yieldToSucceeded");
        assertThat(with).as("yields to targets preempted in the handler").isGreaterThan(10 * without + 10);
    }

    @Test
    void shootdownsPerRecordAreBounded() {
        List<Violation> v = EngineRuns.ENGINE.validate(EngineRuns.spec(EngineRuns.host(1, 2, 1), "static",
                StopCondition.DURATION, 1, List.of(EngineRuns.vm("vm", 1, null, null, null, "spinlock",
                        Map.of("shootdowns", SpinlockWorkload.MAX_SHOOTDOWNS + 1)))), Limits.defaults()).violations();
        assertThat(v).extracting(Violation::pointer).contains("/vms/0/workload/params/shootdowns");
    }
}
