package io.schedlab.engine.output;

import java.util.List;
import java.util.Map;

/**
 * One VM's figures. The four {@code *AllVcpus} times are sums over the VM's vCPUs (so up to
 * vcpus x its lifetime).
 *
 * @param name VM name
 * @param workloadType registry type of its workload
 * @param weight its scheduler weight
 * @param headline its workload's headline figure in the workload's unit
 * @param workloadDetails the workload's other figures, unit in each name (e.g. {@code p99Us}, {@code totalMiB})
 * @param startNanos when the VM started
 * @param endNanos when it stopped: shut down, or its workload completed; null if it ran to the end of the run
 * @param completionNanos when its last thread exited (finite workloads that finished), else null
 * @param cpuNanosAllVcpus time its vCPUs ran
 * @param runnableWaitNanosAllVcpus time its vCPUs were runnable but not running (steal)
 * @param blockedNanosAllVcpus time its vCPUs were blocked (no runnable guest thread)
 * @param spinNanosAllVcpus part of the CPU time spent spinning on a guest lock
 * @param demandShare (cpu + runnable wait) / (vcpus x lifetime): how much of its lifetime it wanted CPU (0..1)
 * @param competing whether it counts in the fairness index ({@code demandShare >= Fairness.minDemandShare})
 * @param wakeLatency guest thread wake-up latency over all its vCPUs
 * @param migrations migrations of its vCPUs
 * @param vcpus per vCPU figures
 * @param initialPlacement where its vCPUs were created and the rule that chose it
 */
public record VmResult(String name, String workloadType, int weight, Headline headline,
        Map<String, Double> workloadDetails, long startNanos, Long endNanos, Long completionNanos,
        long cpuNanosAllVcpus, long runnableWaitNanosAllVcpus, long blockedNanosAllVcpus, long spinNanosAllVcpus,
        double demandShare, boolean competing, Distribution wakeLatency, Migrations migrations,
        List<VcpuResult> vcpus, InitialPlacementResult initialPlacement) {
}
