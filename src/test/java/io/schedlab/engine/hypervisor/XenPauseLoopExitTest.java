package io.schedlab.engine.hypervisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.policies.PolicyRuns;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Xen's pause-loop exit through the real simulator: an HVM guest's spinning vCPU exits after its window and
 * vcpu_yield reaches the policy's yield hook. On one pCPU, two vCPUs of a lock-heavy guest never block, so
 * without a yield every switch waits for the 1 ms rate limit (credit and credit2 keep a non-yielding current
 * vCPU that long); only the policy's yield path lets a spinner give the pCPU to the lock holder sooner.
 * Half of each record is inside the lock, so about every second switch preempts a holder (with the workload's
 * default 5 us of 55 us a 0.2 s run of ~20 switches can miss it by chance).
 */
class XenPauseLoopExitTest {
    private static final double SECONDS = 0.2;
    /** Xen's ple_window, 4096 TSC cycles at 2.5 GHz (xen/arch/x86/hvm/vmx/vmcs.c). */
    private static final long WINDOW_NANOS = 1_640;
    private static final long RATE_LIMIT_NANOS = 1_000_000;

    private static VmSpec lockGuest(long pleWindowNanos) {
        return new VmSpec("locks", 2, null, null, null, null, null, null, null, List.of(0, 0), null,
                new WorkloadSpec("spinlock", Map.of("threads", 2, "outsideUs", 20, "insideUs", 20)),
                pleWindowNanos == 0 ? null : Map.of(XenParameters.PLE_WINDOW, pleWindowNanos), null);
    }

    private static long shortestSwitchGapAfterStart(List<PolicyRuns.TraceRecord> trace) {
        long last = -1;
        long shortest = Long.MAX_VALUE;
        for (PolicyRuns.TraceRecord r : trace) {
            if (!r.event().equals("switch") || r.timeNanos() < 10_000_000) {
                continue;
            }
            if (last >= 0) {
                shortest = Math.min(shortest, r.timeNanos() - last);
            }
            last = r.timeNanos();
        }
        return shortest;
    }

    @ParameterizedTest
    @ValueSource(strings = {"credit", "credit2"})
    void aSpinningHvmVcpuExitsAndYieldsItsPcpuBeforeTheRateLimit(String policy) {
        List<PolicyRuns.TraceRecord> pv = PolicyRuns.trace(policy, Map.of(), 1, 1, 1, SECONDS, List.of(lockGuest(0)));
        List<PolicyRuns.TraceRecord> hvm = PolicyRuns.trace(policy, Map.of(), 1, 1, 1, SECONDS,
                List.of(lockGuest(WINDOW_NANOS)));

        assertThat(shortestSwitchGapAfterStart(pv)).as("without exits a switch waits for the rate limit")
                .isGreaterThanOrEqualTo(RATE_LIMIT_NANOS);
        assertThat(shortestSwitchGapAfterStart(hvm)).as("a yield hands the pCPU over within the rate limit")
                .isLessThan(RATE_LIMIT_NANOS / 10);
    }

    @ParameterizedTest
    @ValueSource(strings = {"credit", "credit2"})
    void exitsAreCountedAndTheLockHolderRunsSooner(String policy) {
        ResultDocument pv = PolicyRuns.run(policy, Map.of(), 1, 1, 1, SECONDS, List.of(lockGuest(0)));
        ResultDocument hvm = PolicyRuns.run(policy, Map.of(), 1, 1, 1, SECONDS, List.of(lockGuest(WINDOW_NANOS)));

        assertThat(pv.hypervisorStatistics()).as("a PV guest takes no exits: Xen keeps no counters").isNull();
        assertThat(hvm.hypervisorStatistics()).containsOnlyKeys(HypervisorStatistics.PLE_EXITS);
        long exits = hvm.hypervisorStatistics().get(HypervisorStatistics.PLE_EXITS);
        assertThat(exits).isPositive();
        assertThat(PolicyRuns.vm(hvm, "locks").vcpus().stream()
                .mapToLong(v -> v.hypervisorStatistics().get(HypervisorStatistics.PLE_EXITS)).sum()).isEqualTo(exits);
        double pvRate = PolicyRuns.vm(pv, "locks").headline().value();
        double hvmRate = PolicyRuns.vm(hvm, "locks").headline().value();
        assertThat(hvmRate).as("records/s: the holder is not left preempted while the waiter spins a whole slice")
                .isGreaterThan(1.2 * pvRate);
    }
}
