package io.schedlab.engine.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * One vCPU's figures: CPU, wait, blocked and spin time, wake-up latency, migrations, time per pCPU, and the
 * policy's per-vCPU statistics (absent when the policy reports none per vCPU).
 */
public record VcpuResult(int vcpu, double cpuSeconds, double runnableWaitSeconds, double blockedSeconds,
        double spinSeconds, Distribution wakeLatency, Migrations migrations, List<PcpuTime> ranOn,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> policyStatistics) {

    /** Time spent on one pCPU (only pCPUs with time are listed, ascending ids). */
    public record PcpuTime(int pcpu, double seconds) {
    }
}
