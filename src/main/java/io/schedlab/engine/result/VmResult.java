package io.schedlab.engine.result;

import io.schedlab.engine.workloads.WorkloadReport;
import java.util.List;

/**
 * One VM's figures.
 *
 * @param name VM name
 * @param workloadType registry type of its workload
 * @param workload the workload's own report (headline in its unit)
 * @param startSeconds when the VM started
 * @param endSeconds when it was shut down, or null if it ran to the end
 * @param completionSeconds simulated time its last thread exited (finite workloads), else null
 * @param cpuSeconds time its vCPUs ran
 * @param runnableWaitSeconds time its vCPUs were runnable but not running (steal)
 * @param blockedSeconds time its vCPUs were blocked (no runnable guest thread)
 * @param spinSeconds time its vCPUs ran a thread spinning on a guest lock
 * @param wakeLatency guest thread wake-up latency (no CDF)
 * @param migrations migrations of its vCPUs
 * @param vcpus per vCPU figures
 */
public record VmResult(String name, String workloadType, WorkloadReport workload, double startSeconds,
        Double endSeconds, Double completionSeconds, double cpuSeconds, double runnableWaitSeconds,
        double blockedSeconds, double spinSeconds, Distribution wakeLatency, Migrations migrations,
        List<VcpuResult> vcpus) {
}
