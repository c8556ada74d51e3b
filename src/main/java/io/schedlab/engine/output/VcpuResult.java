package io.schedlab.engine.output;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * One vCPU's figures.
 *
 * @param vcpu vCPU index within its VM
 * @param cpuNanos time it ran
 * @param runnableWaitNanos time it was runnable but not running (steal)
 * @param blockedNanos time it was blocked (no runnable guest thread)
 * @param spinNanos part of {@code cpuNanos} spent spinning on a guest lock
 * @param wakeLatency guest thread wake-up latency of the threads that woke on it
 * @param migrations its migrations by distance
 * @param ranOn time per pCPU
 * @param policyStatistics the policy's per-vCPU counters, name -> value (absent when it reports none per vCPU)
 * @param hypervisorStatistics the hypervisor layer's counters for this vCPU (KVM; under Xen its pleExits, absent when no
 *     guest took a pause-loop exit)
 */
public record VcpuResult(int vcpu, long cpuNanos, long runnableWaitNanos, long blockedNanos, long spinNanos,
        Distribution wakeLatency, Migrations migrations, List<PcpuTime> ranOn,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> policyStatistics,
        @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Long> hypervisorStatistics) {

    /** Time spent on one pCPU (only pCPUs with time are listed, ascending ids). */
    public record PcpuTime(int pcpu, long nanos) {
    }
}
