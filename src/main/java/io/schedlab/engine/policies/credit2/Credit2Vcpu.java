package io.schedlab.engine.policies.credit2;

import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.policies.Decision;

/** Per-vCPU state of credit2 (struct csched2_unit in xen/common/sched/credit2.c). */
final class Credit2Vcpu {
    final Vcpu vcpu;
    /** vcpu.uid, unique across the run: the run queues' ring holds it. */
    final int uid;
    final Credit2Domain dom;
    /** Assigned run queue (svc->rqd), null when not assigned yet. */
    Credit2Runqueue rq;
    /** Credit in ns of runtime at the queue's max weight. */
    long credit;
    long startTime;
    /** When it last started running (runstate.state_entry_time), for the rate limit. */
    long runStart;
    /** Remainder of the weight division (t2c_update: svc->residual). */
    long residual;
    int weight;
    /** Exponentially weighted average of this vCPU's runnable state (svc->avgload), in vCPUs. */
    double avgload;
    long loadLastUpdate;
    /** Counted in its run queue's instantaneous load (runnable and not parked). */
    /** Placed once (csched2_vcpu_insert's pick or not); later placements are wake-ups or migrations. */
    boolean inserted;
    boolean loaded;
    boolean onRunq;
    /** __CSFLAG_scheduled: chosen by do_schedule and not yet context-saved. */
    boolean scheduled;
    /** __CSFLAG_delayed_runq_add: re-queue in context_saved. */
    boolean delayedRunqAdd;
    /** __CSFLAG_unit_yield. */
    boolean yield;
    /** __CSFLAG_runq_migrate_request: move to this run queue once descheduled (svc->migrate_rqd). */
    Credit2Runqueue migrateRqd;
    /** svc->tickled_cpu (-1 = none). */
    int tickledCpu = -1;
    /** Cap budget in ns grabbed from the domain (svc->budget). */
    long budget;
    /** Statistics: pCPUs runq_tickle chose for this vCPU, and moves of it by load balancing. */
    long tickles;
    long balanceMoves;
    /** _VPF_parked: out of cap budget. */
    boolean parked;
    /** vcpu.softAffinity is empty (cpu_soft_affinity = all pCPUs); refreshed on addVcpu / affinityChanged. */
    boolean softNone = true;
    /**
     * vcpu.hardAffinity holds every pCPU of the host (the usual case: no pinning), so affinity
     * tests need not read the BitSet; refreshed on addVcpu / affinityChanged.
     */
    boolean hardAll;

    /** Its last do_schedule answer, reused while the run time is the same ({@link Decision#reuse}). */
    Decision lastDecision;

    Credit2Vcpu(Vcpu vcpu, Credit2Domain dom) {
        this.vcpu = vcpu;
        this.uid = vcpu.uid;
        this.dom = dom;
        this.weight = Math.max(1, vcpu.vm.weight);
    }

    /** Refresh the cached affinity flags from vcpu's masks (host of {@code pcpus} pCPUs). */
    void affinityRead(int pcpus) {
        softNone = vcpu.softAffinity.isEmpty();
        hardAll = vcpu.hardAffinity.nextClearBit(0) >= pcpus;
    }

    /** {@link Vcpu#allowedOn}: cpu in the hard affinity. */
    boolean allowedOn(int cpu) {
        assert !hardAll || vcpu.hardAffinity.get(cpu) : vcpu + ": hard affinity changed without affinityChanged()";
        return hardAll || vcpu.hardAffinity.get(cpu);
    }

    /** cpu in Xen's cpu_soft_affinity (every pCPU when no soft affinity is set). */
    boolean inSoft(int cpu) {
        assert softNone == vcpu.softAffinity.isEmpty() : vcpu + ": soft affinity changed without affinityChanged()";
        return softNone || vcpu.softAffinity.get(cpu);
    }

    /** The hard affinity meets rqd's pCPUs. */
    boolean reaches(Credit2Runqueue rqd) {
        assert !hardAll || vcpu.hardAffinity.intersects(rqd.active) : vcpu + ": hard affinity changed without affinityChanged()";
        return hardAll || vcpu.hardAffinity.intersects(rqd.active);
    }

    static Credit2Vcpu of(Vcpu v) {
        return (Credit2Vcpu) v.policyData;
    }
}
