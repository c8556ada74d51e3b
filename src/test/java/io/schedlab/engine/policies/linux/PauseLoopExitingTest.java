package io.schedlab.engine.policies.linux;

import static io.schedlab.engine.policies.linux.LinuxRuns.endlessLoop;
import static io.schedlab.engine.policies.linux.LinuxRuns.host;
import static io.schedlab.engine.policies.linux.LinuxRuns.run;
import static io.schedlab.engine.policies.linux.LinuxRuns.spec;
import static io.schedlab.engine.policies.linux.LinuxRuns.vm;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Seconds;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VcpuResult;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** KVM pause-loop exiting on the Linux host schedulers: when it scans, when it yields, and what it counts. */
class PauseLoopExitingTest {

    private static VmSpec spinlockVm(String name, int vcpus) {
        return vm(name, vcpus, null, new WorkloadSpec("spinlock", Map.of("threads", 0)));
    }

    private static ResultDocument run(String policy, String handler, int pcpus, List<VmSpec> vms) {
        return run(policy, Map.of("pleHandler", handler), pcpus, vms);
    }

    private static ResultDocument run(String policy, Map<String, Object> params, int pcpus, List<VmSpec> vms) {
        return LinuxRuns.run(spec(host(1, pcpus, 1), new SchedulerSpec(policy, params), 0.5, vms));
    }

    private static long stat(ResultDocument doc, String name) {
        return doc.hypervisorStatistics().get(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"cfs", "eevdf"})
    void undercommitReturnsAtOnceWhenTheSpinnerIsAloneOnItsRunQueue(String policy) {
        List<VmSpec> oneX = List.of(spinlockVm("guest", 4));
        ResultDocument base = run(policy, "base", 8, oneX);
        ResultDocument under = run(policy, "undercommit", 8, oneX);
        assertThat(stat(base, "pleExits")).isPositive();
        assertThat(stat(base, "candidatesScanned")).as("base scans in vain").isPositive();
        assertThat(stat(base, "yieldToSucceeded")).isZero();
        assertThat(stat(under, "pleExits")).isPositive();
        assertThat(stat(under, "undercommitReturns")).isEqualTo(stat(under, "pleExits"));
        assertThat(stat(under, "candidatesScanned")).isZero();
        assertThat(stat(under, "kvmVcpuOnSpinCalls")).isZero();
        for (VcpuResult v : LinuxRuns.vm(under, "guest").vcpus()) {
            assertThat(v.hypervisorStatistics().get("candidatesScanned")).isZero();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"cfs", "eevdf"})
    void lockHolderPreemptionInOvercommitLeadsToDirectedYields(String policy) {
        // 8 spinning vCPUs and 4 busy ones on 4 CPUs: the host deschedules lock holders, waiters exit and boost them
        ResultDocument doc = run(policy, "base", 4, List.of(spinlockVm("guest", 8), vm("busy", 4, null, endlessLoop(4))));
        assertThat(stat(doc, "pleExits")).isPositive();
        assertThat(stat(doc, "yieldToTried")).isPositive();
        assertThat(stat(doc, "yieldToSucceeded")).isPositive();
        assertThat(stat(doc, "handlerNanos")).isPositive();
        VmResult guest = LinuxRuns.vm(doc, "guest");
        long perVcpu = guest.vcpus().stream().mapToLong(v -> v.hypervisorStatistics().get("pleExits")).sum();
        assertThat(perVcpu).isEqualTo(stat(doc, "pleExits"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"cfs", "eevdf"})
    void noLockHolderPreemptionAtOneXWithIdleCpus(String policy) {
        ResultDocument doc = run(policy, "base", 8, List.of(spinlockVm("guest", 4)));
        VmResult guest = LinuxRuns.vm(doc, "guest");
        assertThat(Seconds.of(guest.runnableWaitNanosAllVcpus())).as("no vCPU is ever preempted").isLessThan(0.001);
        assertThat(stat(doc, "yieldToTried")).isZero();
        assertThat(Seconds.of(guest.spinNanosAllVcpus())).as("the guest still contends for its lock").isPositive();
    }

    @Test
    void aFixedWindowExitsAtEveryBaseWindowWhereTheGrowingOneBacksOff() {
        // 1x, every vCPU alone on its CPU: no sched-in shrinks the window, so it doubles per exit unless fixed
        List<VmSpec> oneX = List.of(spinlockVm("guest", 4));
        long growing = stat(run("cfs", Map.of("pleHandler", "base"), 8, oneX), "pleExits");
        long fixed = stat(run("cfs", Map.of("pleHandler", "base", "pleWindowGrow", 0), 8, oneX), "pleExits");
        assertThat(growing).isPositive();
        assertThat(fixed).as("ple_window_grow 0: __grow_ple_window keeps the base window").isGreaterThan(10 * growing);
    }

    @Test
    void pleGapZeroTurnsExitsOffButTheGuestStillSpins() {
        ResultDocument doc = run("cfs", Map.of("pleGapCycles", 0), 4,
                List.of(spinlockVm("guest", 8), vm("busy", 4, null, endlessLoop(4))));
        assertThat(stat(doc, "pleExits")).isZero();
        assertThat(Seconds.of(LinuxRuns.vm(doc, "guest").spinNanosAllVcpus())).isPositive();
    }

    @Test
    void xenKeepsNoHypervisorStatistics() {
        ResultDocument doc = LinuxRuns.run(spec(host(1, 4, 1), new SchedulerSpec("credit2", null), 0.2,
                List.of(spinlockVm("guest", 8))));
        assertThat(doc.hypervisorStatistics()).isNull();
        assertThat(doc.vms().get(0).vcpus().get(0).hypervisorStatistics()).isNull();
    }
}
