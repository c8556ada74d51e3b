package io.schedlab.engine.policies.rt;

import io.schedlab.engine.model.Vcpu;

/** Per-vCPU state of rtds (struct rt_unit in xen/common/sched/rt.c) and its statistics. */
final class RtdsVcpu {
    final Vcpu vcpu;
    long period;
    long budget;
    boolean extratime;

    long curBudget;
    long curDeadline;
    long lastStart;
    /** priority_level: 0 while within budget; +1 each time an extratime vCPU uses up its budget. */
    int level;
    boolean onRunq;
    boolean onDepletedq;
    boolean onReplq;
    /** Its order label in the run or depleted queue (it is on one at most) and in the replenishment queue. */
    long queueLabel;
    long replqLabel;
    /** RTDS_scheduled: running or switched away but not yet context_saved. */
    boolean scheduled;
    /** RTDS_delayed_runq_add: re-queue at context_saved. */
    boolean delayedRunqAdd;
    /** RTDS_depleted: budget used up without extratime. */
    boolean depleted;
    /** The pCPU whose rt_schedule last chose it and still runs it ({@link TickleTargets}), else -1. */
    int runningOn = -1;
    /**
     * Whether the hard affinity holds every host pCPU, kept by {@link TickleTargets#refreshAllowsAll} on addVcpu and
     * affinityChanged, so runq_tickle need not scan the mask (a scan of pCPUs/64 words per wake-up).
     */
    boolean allowsAll;

    long deadlineMisses;
    long budgetOverruns;
    long budgetOverrunNanos;

    RtdsVcpu(Vcpu vcpu) {
        this.vcpu = vcpu;
    }

    boolean onQueue() {
        return onRunq || onDepletedq;
    }

    /**
     * compare_unit_priority: positive when this has the higher priority (lower level, then earlier deadline),
     * negative when lower, 0 when equal.
     */
    long comparePriority(RtdsVcpu o) {
        if (level != o.level) {
            return o.level - level;
        }
        return o.curDeadline - curDeadline;
    }
}
