package io.schedlab.engine.policies.linux;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * A fair run queue (struct cfs_rq): queued entities ordered by vruntime, the running one apart. Each CPU has a root
 * one; a task group has one per CPU, queued on the CPU's root run queue through its group entity ({@link #owner}).
 */
final class LinuxRq {
    /** Timeline order (__entity_less): vruntime, then creation order for determinism. */
    static final Comparator<LinuxTask> BY_VRUNTIME = Comparator.<LinuxTask>comparingLong(t -> t.vruntime)
            .thenComparingInt(t -> t.uid);

    final int cpu;
    /** The group entity that represents this run queue on its parent (se->my_q's owner); null for a CPU's root. */
    LinuxTask owner;
    /** The task group whose run queue this is (tg->cfs_rq[cpu]); null for a CPU's root. */
    TaskGroup tg;
    /** Tasks queued here or below, running ones included (cfs_rq->h_nr_running; rq->nr_running at the root). */
    int hNr;
    final TreeSet<LinuxTask> queued = new TreeSet<>(BY_VRUNTIME);
    /** The running task (cfs_rq->curr), or null. */
    LinuxTask curr;
    /** Sum of the weights of every task on the queue, curr included (cfs_rq->load). */
    long load;
    /** Entities on the queue, curr included (cfs_rq->nr_running; the CPU's tasks when it has no task groups). */
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
        countTask(t, 1);
    }

    /** Takes a queued (not running) entity off. */
    void remove(LinuxTask t) {
        queued.remove(t);
        leave(t);
    }

    /** An entity leaves the queue's accounting (the running one stays curr until the schedule that follows). */
    void leave(LinuxTask t) {
        t.onRq = false;
        nr--;
        load -= t.weight;
        clearBuddies(t);
        countTask(t, -1);
    }

    /** h_nr_running of this queue and its ancestors follows a task (a group entity's tasks are counted already). */
    private void countTask(LinuxTask t, int delta) {
        if (t.my != null) {
            return;
        }
        for (LinuxRq r = this; r != null; r = r.owner == null ? null : r.owner.rq) {
            r.hNr += delta;
        }
    }

    /** The CPU's root run queue this one hangs under (itself for a root). */
    LinuxRq root() {
        LinuxRq r = this;
        while (r.owner != null) {
            r = r.owner.rq;
        }
        return r;
    }

    /** The task running on this queue's CPU below this queue (curr, descending through group entities), or null. */
    LinuxTask runningTask() {
        LinuxTask c = curr;
        while (c != null && c.my != null) {
            c = c.my.curr;
        }
        return c;
    }

    /** The tasks waiting here or below (not running), in timeline order, a group's after its entity's place. */
    List<LinuxTask> queuedTasks() {
        List<LinuxTask> out = new ArrayList<>();
        for (LinuxTask t : queued) {
            if (t.my == null) {
                out.add(t);
            } else {
                out.addAll(t.my.queuedTasks());
            }
        }
        if (curr != null && curr.my != null) {
            out.addAll(curr.my.queuedTasks());
        }
        return out;
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
