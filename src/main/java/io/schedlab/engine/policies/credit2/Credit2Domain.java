package io.schedlab.engine.policies.credit2;

import io.schedlab.engine.model.Vm;
import io.schedlab.engine.policies.SchedulerContext;
import java.util.ArrayList;
import java.util.List;

/**
 * Per-domain state of credit2 (struct csched2_dom): the cap budget, refilled every
 * CSCHED2_BDGT_REPL_PERIOD with cap% of the period (replenish_domain_budget), and the vCPUs
 * parked for lack of budget.
 */
final class Credit2Domain {
    final Vm vm;
    final List<Credit2Vcpu> parked = new ArrayList<>();
    long budget;
    long totBudget;
    int capInUse;
    SchedulerContext.TimerHandle replTimer;

    Credit2Domain(Vm vm) {
        this.vm = vm;
    }

    static Credit2Domain of(Vm vm) {
        return (Credit2Domain) vm.policyData;
    }

    boolean hasCap() {
        return capInUse > 0;
    }

    /** svc->budget_quota: an even share of the budget, at least the minimum timer. */
    long quota(long minTimer) {
        int nr = Math.max(1, vm.vcpus.size());
        return Math.max(totBudget / nr, minTimer);
    }
}
