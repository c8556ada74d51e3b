package io.schedlab.engine.policies.credit;

import io.schedlab.engine.registry.CostHints;
import io.schedlab.engine.params.Params;

/** How often credit switches and wakes itself, for the cost estimate. */
final class CreditCostHints implements CostHints {

    /** A contended pCPU switches once per time slice (xen/common/sched/credit.c csched_schedule: runtime = tslice). */
    @Override
    public double sliceSeconds(Params params) {
        return CreditParams.from(params).tsliceNanos() / 1e9;
    }

    /** ticksPerTslice ticks per slice (csched_tick) and one accounting pass per slice (csched_acct). */
    @Override
    public double periodicEventsPerPcpuSecond(Params params) {
        CreditParams p = CreditParams.from(params);
        double tslice = p.tsliceNanos() / 1e9;
        return p.ticksPerTslice() / tslice + 1 / tslice;
    }
}
