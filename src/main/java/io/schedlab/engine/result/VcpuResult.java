package io.schedlab.engine.result;

import java.util.List;

/** One vCPU's figures: CPU, wait, blocked and spin time, wake-up latency, migrations and time per pCPU. */
public record VcpuResult(int vcpu, double cpuSeconds, double runnableWaitSeconds, double blockedSeconds,
        double spinSeconds, Distribution wakeLatency, Migrations migrations, List<PcpuTime> ranOn) {

    /** Time spent on one pCPU (only pCPUs with time are listed, ascending ids). */
    public record PcpuTime(int pcpu, double seconds) {
    }
}
