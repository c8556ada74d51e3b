package io.schedlab.engine.policies.rt;

import io.schedlab.engine.model.Vcpu;

/** Per-vCPU state of sedf/gedf (struct sedf_vcpu_info in xen/common/sched_sedf.c, 4.5) and its statistics. */
final class SedfVcpu {
    final Vcpu vcpu;
    long period;
    long slice;
    long periodOrig;
    long sliceOrig;
    long latency;
    boolean extraAware;
    int weight;

    /** deadl_abs: end of the current period; 0 before the first wake-up. */
    long deadline;
    long cputime;
    long schedStart;
    boolean asleep = true;
    /** EXTRA_RUN_UTIL: now running in extra time. */
    boolean runningExtra;
    boolean onRunq;
    boolean onWaitq;
    /** Its order label in the run or wait queue (it is on one at most). */
    long queueLabel;
    boolean onExtraq;

    /** gedf: switched away, to be put back on the global queues at context_saved (extra queue too if set). */
    boolean requeuePending;
    boolean requeueExtra;
    /** Shut down: keeps its statistics, no longer counted in the weights. */
    boolean removed;

    /** Links of the extra queue ({@link FifoQueue}). */
    SedfVcpu extraPrev;
    SedfVcpu extraNext;

    long deadlineMisses;
    long extraTimeNanos;

    SedfVcpu(Vcpu vcpu) {
        this.vcpu = vcpu;
    }

    /** PERIOD_BEGIN. */
    long periodBegin() {
        return deadline - period;
    }
}
