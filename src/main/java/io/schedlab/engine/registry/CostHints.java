package io.schedlab.engine.registry;

import io.schedlab.engine.params.Params;
/**
 * Optional capability: how often a policy switches and wakes itself, for the cost estimate of an experiment
 * (docs/admission.md), read from the policy's own normalized parameters so no default is restated.
 */
public interface CostHints extends DescriptorCapability {

    /** The slice a pCPU shared by CPU-bound vCPUs switches at, in seconds. */
    double sliceSeconds(Params params);

    /** The policy's own periodic events per pCPU and second (ticks, accounting); none by default. */
    default double periodicEventsPerPcpuSecond(Params params) {
        return 0;
    }
}
