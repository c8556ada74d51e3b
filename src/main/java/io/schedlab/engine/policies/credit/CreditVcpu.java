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
    /** First queued already (csched_unit_insert ran): later placements of a waking vCPU keep its processor. */
    boolean inserted;
    /** Statistics: times another pCPU stole this vCPU (csched_runq_steal). */
    long stolen;

    /** Its last do_schedule answer, reused while the run time is the same ({@link Decision#reuse}). */
    Decision lastDecision;

    /** Hard and soft affinity as one word (hosts of at most 64 pCPUs; bits below the host size) and has_soft_affinity. */
    long hardWord;
    long softWord;
    boolean softUseful;

    CreditVcpu(Vcpu vcpu, CreditDomain dom) {
        this.vcpu = vcpu;
        this.dom = dom;
    }

    /** Re-reads the vCPU's affinity masks into {@link #hardWord}, {@link #softWord} and {@link #softUseful}. */
    void affinityChanged(int hostPcpus) {
        softUseful = vcpu.hasSoftAffinity();
        if (hostPcpus <= Long.SIZE) {
            hardWord = hostWord(vcpu.hardAffinity, hostPcpus);
            softWord = hostWord(vcpu.softAffinity, hostPcpus);
        }
    }

    /** Whether {@link #affinityChanged} ran since the masks last changed (checked with -ea, as in the tests). */
    boolean affinityWordsCurrent(int hostPcpus) {
        return softUseful == vcpu.hasSoftAffinity() && hardWord == hostWord(vcpu.hardAffinity, hostPcpus)
                && softWord == hostWord(vcpu.softAffinity, hostPcpus);
    }

    /** The pCPUs of {@code set} below the host size (at most 64), as one word. */
    private static long hostWord(java.util.BitSet set, int hostPcpus) {
        long[] words = set.toLongArray();
        long first = words.length == 0 ? 0 : words[0];
        return hostPcpus == Long.SIZE ? first : first & ((1L << hostPcpus) - 1);
    }

    static CreditVcpu of(Vcpu v) {
        return (CreditVcpu) v.policyData;
    }
}
