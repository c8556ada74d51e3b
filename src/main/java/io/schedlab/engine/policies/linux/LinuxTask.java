package io.schedlab.engine.policies.linux;

import io.schedlab.engine.model.Vcpu;

/** A host thread as the Linux fair class sees it (struct sched_entity): weight, virtual runtime, EEVDF deadline and lag. */
final class LinuxTask {
    final Vcpu v;
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
    /** Never enqueued yet (ENQUEUE_INITIAL placement). */
    boolean fresh = true;

    LinuxTask(Vcpu v, int weight, LinuxRq rq) {
        this.v = v;
        this.weight = weight;
        this.rq = rq;
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
        return v.toString();
    }
}
