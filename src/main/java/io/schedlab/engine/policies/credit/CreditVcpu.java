package io.schedlab.engine.policies.credit;

import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.policies.Decision;

/** Per-vCPU state of credit1 (Xen's struct csched_unit in xen/common/sched/credit.c). */
final class CreditVcpu {
    /** Priorities (credit.c: CSCHED_PRI_TS_BOOST/UNDER/OVER, CSCHED_PRI_IDLE). */
    static final int PRI_BOOST = 0;
    static final int PRI_UNDER = -1;
    static final int PRI_OVER = -2;
    static final int PRI_IDLE = -64;

    final Vcpu vcpu;
    final CreditDomain dom;
    int pri = PRI_UNDER;
    int credit;
    /** When it last started running (runstate.state_entry_time), for the rate limit. */
    long runStart;
    /** Start of the not-yet-burned running interval (start_time). */
    long startTime;
    /** Sub-credit remainder of burned time, in ns x creditsPerMs (burn_credits: residual). */
    long residual;
    /** On its domain's active list (active_unit_elem non-empty). */
    boolean active;
    /** CSCHED_FLAG_UNIT_PARKED: paused by a cap. */
    boolean parked;
    /** CSCHED_FLAG_UNIT_YIELD. */
    boolean yield;
    /** _VPF_migrating: leave this pCPU once descheduled (csched_unit_acct / __runq_tickle kick-away). */
    boolean migrating;
    /** Queued on a pCPU run queue. */
    boolean onRunq;
    /** Chosen by do_schedule and not yet context-saved (Xen's is_running). */
    boolean running;
    /** last_sched_time, for __csched_vcpu_is_cache_hot. */
    long lastSchedTime = Long.MIN_VALUE / 4;

    /** Its last do_schedule answer, reused while the run time is the same ({@link Decision#reuse}). */
    Decision lastDecision;

    CreditVcpu(Vcpu vcpu, CreditDomain dom) {
        this.vcpu = vcpu;
        this.dom = dom;
    }

    static CreditVcpu of(Vcpu v) {
        return (CreditVcpu) v.policyData;
    }
}
