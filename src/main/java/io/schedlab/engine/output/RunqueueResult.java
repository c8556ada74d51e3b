package io.schedlab.engine.output;

import java.util.List;

/**
 * One run queue.
 *
 * @param runqueue run queue id
 * @param pcpus the pCPUs it serves, ascending
 * @param averageLength time-averaged number of runnable, not running vCPUs on it (vCPUs)
 * @param competingVms the competing VMs that ran on its pCPUs, creation order
 * @param jainIndex Jain's index of the CPU time its pCPUs gave those VMs (per weight), null when none ran there
 */
public record RunqueueResult(int runqueue, List<Integer> pcpus, double averageLength, List<String> competingVms,
        Double jainIndex) {
}
