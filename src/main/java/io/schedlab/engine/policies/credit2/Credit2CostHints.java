package io.schedlab.engine.policies.credit2;

import io.schedlab.engine.registry.CostHints;
import io.schedlab.engine.params.Params;

/** How often credit2 switches, for the cost estimate. */
final class Credit2CostHints implements CostHints {

    /**
     * A slice runs until the credit difference to the next vCPU is used up, clamped to [minTimerUs, maxTimerUs]
     * (xen/common/sched/credit2.c csched2_runtime); CPU-bound vCPUs with equal weights switch about every
     * creditInitUs / 3 (measured: ~300 switches/s at 10 ms).
     */
    @Override
    public double sliceSeconds(Params params) {
        Credit2Params p = Credit2Params.from(params);
        return Math.max(p.minTimerUs(), Math.min(p.effectiveMaxTimerUs(), p.creditInitUs() / 3)) / 1e6;
    }

    /**
     * Up to 4.6 an idle pCPU re-runs the scheduler every max timer (csched2_runtime gives the idle vCPU
     * CSCHED2_MAX_TIMER until 2c6f317a2b): one decision per max timer per pCPU at most; none from 4.7.
     */
    @Override
    public double periodicEventsPerPcpuSecond(Params params) {
        Credit2Params p = Credit2Params.from(params);
        return p.xenVersion().credit2IdleTimer() ? 1e6 / p.effectiveMaxTimerUs() : 0;
    }
}
