package io.schedlab.engine.policies.linux;

import java.util.Comparator;
import java.util.TreeSet;

/** One CPU's fair run queue (struct cfs_rq): queued tasks ordered by vruntime, the running one apart. */
final class LinuxRq {
    /** Timeline order (__entity_less): vruntime, then creation order for determinism. */
    static final Comparator<LinuxTask> BY_VRUNTIME = Comparator.<LinuxTask>comparingLong(t -> t.vruntime)
            .thenComparingInt(t -> t.v.uid);

    final int cpu;
    final TreeSet<LinuxTask> queued = new TreeSet<>(BY_VRUNTIME);
    /** The running task (cfs_rq->curr), or null. */
    LinuxTask curr;
    /** Sum of the weights of every task on the queue, curr included (cfs_rq->load). */
    long load;
    /** Tasks on the queue, curr included (rq->nr_running). */
    int nr;
    /** Monotonic floor of the vruntimes (cfs_rq->min_vruntime). */
    long minVruntime;
    /** CFS buddies: skip after a yield, next after yield_to (cfs_rq->skip, cfs_rq->next). */
    LinuxTask skip;
    LinuxTask next;
    /** update_curr asked for a reschedule (resched_curr's TIF_NEED_RESCHED) that the next schedule clears. */
    boolean reschedPending;

    LinuxRq(int cpu) {
        this.cpu = cpu;
    }

    void add(LinuxTask t) {
        t.rq = this;
        t.onRq = true;
        nr++;
        load += t.weight;
        queued.add(t);
    }

    /** Takes a queued (not running) task off. */
    void remove(LinuxTask t) {
        queued.remove(t);
        t.onRq = false;
        nr--;
        load -= t.weight;
        clearBuddies(t);
    }

    void clearBuddies(LinuxTask t) {
        if (skip == t) {
            skip = null;
        }
        if (next == t) {
            next = null;
        }
    }

    /** update_min_vruntime: max(min_vruntime, min(curr, leftmost)). */
    void updateMinVruntime() {
        long v = Long.MAX_VALUE;
        if (curr != null && curr.onRq) {
            v = curr.vruntime;
        }
        if (!queued.isEmpty()) {
            v = Math.min(v, queued.first().vruntime);
        }
        if (v != Long.MAX_VALUE) {
            minVruntime = Math.max(minVruntime, v);
        }
    }

    /**
     * EEVDF avg_vruntime: the load-weighted mean vruntime V of curr and the queued tasks (relative to
     * min_vruntime, as the kernel keeps it, so the sums do not overflow).
     */
    long avgVruntime() {
        long weights = 0;
        long sum = 0;
        if (curr != null && curr.onRq) {
            weights += curr.weight;
            sum += (curr.vruntime - minVruntime) * curr.weight;
        }
        for (LinuxTask t : queued) {
            weights += t.weight;
            sum += (t.vruntime - minVruntime) * t.weight;
        }
        return weights == 0 ? minVruntime : minVruntime + Math.floorDiv(sum, weights);
    }

    /** EEVDF avg_load without curr: the weights of the queued tasks. */
    long queuedLoad() {
        return load - (curr != null && curr.onRq ? curr.weight : 0);
    }
}
