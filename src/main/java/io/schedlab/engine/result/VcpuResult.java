package io.schedlab.engine.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * One vCPU's figures: CPU, wait, blocked and spin time, wake-up latency, migrations, time per pCPU, and
 * under KVM the hypervisor's counters for this vCPU (absent under Xen, which keeps none).
 */
public record VcpuResult(int vcpu, double cpuSeconds, double runnableWaitSeconds, double blockedSeconds,
        double spinSeconds, Distribution wakeLatency, Migrations migrations, List<PcpuTime> ranOn,
        @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Long> hypervisorStatistics) {

    /** Without hypervisor statistics (Xen). */
    public VcpuResult(int vcpu, double cpuSeconds, double runnableWaitSeconds, double blockedSeconds,
            double spinSeconds, Distribution wakeLatency, Migrations migrations, List<PcpuTime> ranOn) {
        this(vcpu, cpuSeconds, runnableWaitSeconds, blockedSeconds, spinSeconds, wakeLatency, migrations, ranOn, null);
    }

    /** Time spent on one pCPU (only pCPUs with time are listed, ascending ids). */
    public record PcpuTime(int pcpu, double seconds) {
    }
}
