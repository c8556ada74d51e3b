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
}
