package io.schedlab.engine.policies.linux;

import io.schedlab.engine.model.Vcpu;

/** A host thread as the Linux fair class sees it (struct sched_entity): weight, virtual runtime, EEVDF deadline and lag. */
final class LinuxTask {
    /** The host thread; null for a group entity. */
    final Vcpu v;
    /** Timeline tie-break: the vCPU's uid, or a negative id for a group entity. */
    final int uid;
    /** A group entity's own run queue (se->my_q); null for a task. */
    final LinuxRq my;
    /** The task group a task belongs to (null: the root group); null for a group entity (its parent is the root). */
    TaskGroup group;
    int weight;
    /** Virtual runtime in ns of nice-0 time (se->vruntime). */
    long vruntime;
    /** EEVDF virtual deadline (se->deadline). */
    long deadline;
    /** EEVDF lag saved at dequeue (se->vlag), in virtual ns. */
    long vlag;
    /** EEVDF: true from pick until the deadline moves (RUN_TO_PARITY's "vlag == deadline" marker). */
    boolean atParity;
    /** When the running time was last accounted (se->exec_start); after a run, when it stopped. */
    long execStart;
    long sumExec;
    /** sumExec when last picked (se->prev_sum_exec_runtime). */
    long prevSumExec;
    /** The run queue it is on or last was on. */
    LinuxRq rq;
    /** On a run queue: queued in its tree or running as its curr (se->on_rq). */
    boolean onRq;
    /**
     * EEVDF DELAY_DEQUEUE (6.12+, se->sched_delayed): it went to sleep while not eligible and stays on its queue,
     * competing, until it is picked (then dequeued) or wakes (then requeued in place).
     */
    boolean delayed;
    /** Never enqueued yet (ENQUEUE_INITIAL placement). */
    boolean fresh = true;
    /** EEVDF: the slice the task asked for with sched_setattr (se->custom_slice, se->slice), in ns; 0 = the base slice. */
    long customSliceNanos;
    /** Times the task was switched in (picked while another task or idle had the CPU): perf sched's switches. */
    long switchesIn;
    /**
     * PELT's runnable average (kernel/sched/pelt.c ___update_load_sum / ___update_load_avg): the decayed share of
     * recent time spent on a run queue, 1 for a new task (init_entity_runnable_average starts at full load).
     */
    double runnableAvg = 1.0;
    /** When runnableAvg was last brought up to date (se->avg.last_update_time); -1 before the first enqueue. */
    long avgAt = -1;

    /**
     * PELT's half-life: a contribution halves every LOAD_AVG_PERIOD (32) periods of 1024 us (kernel/sched/pelt.c:
     * y^32 = 0.5); continuous here rather than per 1024 us period.
     */
    static final double PELT_HALF_LIFE_NANOS = 32 * 1024 * 1000.0;

    LinuxTask(Vcpu v, int weight, LinuxRq rq) {
        this(v, v.uid, weight, rq, null);
    }

    /** A group entity (init_tg_cfs_entry): queued on {@code rq}, representing {@code my}. */
    LinuxTask(int uid, int weight, LinuxRq rq, LinuxRq my) {
        this(null, uid, weight, rq, my);
        this.fresh = false; // created with its cgroup, not forked: its first enqueue is a plain wake-up placement
    }

    private LinuxTask(Vcpu v, int uid, int weight, LinuxRq rq, LinuxRq my) {
        this.v = v;
        this.uid = uid;
        this.weight = weight;
        this.rq = rq;
        this.my = my;
    }

    /** Brings runnableAvg to {@code now}: the time since the last update counts as runnable when on a run queue. */
    void updateAvg(long now) {
        if (avgAt < 0) {
            avgAt = now;
            return;
        }
        long dt = now - avgAt;
        if (dt <= 0) {
            return;
        }
        double decay = StrictMath.pow(0.5, dt / PELT_HALF_LIFE_NANOS);
        runnableAvg = runnableAvg * decay + (onRq ? 1 - decay : 0);
        avgAt = now;
    }

    /** se->avg.load_avg at {@code now}: the weight scaled by the runnable average. */
    long loadAvg(long now) {
        updateAvg(now);
        return Math.round(weight * runnableAvg);
    }

    /** calc_delta_fair: wall ns of this task -> virtual ns. */
    long toVirtual(long delta) {
        return weight == NiceWeights.NICE_0_LOAD ? delta : delta * NiceWeights.NICE_0_LOAD / weight;
    }

    /** Virtual ns -> wall ns of this task's running time. */
    long toWall(long virtualDelta) {
        return weight == NiceWeights.NICE_0_LOAD ? virtualDelta : virtualDelta * weight / NiceWeights.NICE_0_LOAD;
    }

    @Override
    public String toString() {
        return v != null ? v.toString() : "group-entity" + uid;
    }
}
