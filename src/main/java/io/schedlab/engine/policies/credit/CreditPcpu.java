package io.schedlab.engine.policies.credit;

import java.util.ArrayList;
import java.util.List;

/**
 * Per-pCPU state of credit1 (struct csched_pcpu): the run queue ordered by priority, FIFO within
 * a priority (credit.c: __runq_insert), the idle-CPU bias and the last work-stealing time.
 */
final class CreditPcpu {
    final int id;
    final List<CreditVcpu> runq = new ArrayList<>();
    int idleBias;
    long lastLoadBalance = Long.MIN_VALUE / 4;
    int sortEpoch;
    private final List<CreditVcpu> sortScratch = new ArrayList<>();

    /** Shared array of run-queue heads by pCPU (slot {@link #id} kept in step), or null. */
    private final CreditVcpu[] heads;

    CreditPcpu(int id) {
        this(id, null);
    }

    CreditPcpu(int id, CreditVcpu[] heads) {
        this.id = id;
        this.idleBias = id;
        this.heads = heads;
    }

    /** After any change to the queue: keeps the shared head slot in step (null: empty queue). */
    private void markQueued() {
        if (heads != null) {
            heads[id] = runq.isEmpty() ? null : runq.get(0);
        }
    }

    /**
     * __runq_insert: after every vCPU of equal or higher priority; a yielding vCPU goes behind one
     * more lower-priority vCPU when there is one.
     */
    void insert(CreditVcpu svc) {
        int i = 0;
        int n = runq.size();
        while (i < n && runq.get(i).pri >= svc.pri) {
            i++;
        }
        if (svc.yield && i < n) {
            i++;
        }
        runq.add(i, svc);
        svc.onRunq = true;
        markQueued();
    }

    void remove(CreditVcpu svc) {
        if (!svc.onRunq) {
            return;
        }
        for (int i = 0; i < runq.size(); i++) {
            if (runq.get(i) == svc) { // by identity: no equals() calls
                runq.remove(i);
                svc.onRunq = false;
                markQueued();
                return;
            }
        }
    }

    CreditVcpu head() {
        return runq.isEmpty() ? null : runq.get(0);
    }

    /** csched_runq_sort: move UNDER/BOOST vCPUs ahead of the others, keeping relative order. */
    void sortByPriorityClass() {
        // stable partition in place: UNDER/BOOST compacted to the front, the others kept aside
        List<CreditVcpu> rest = sortScratch;
        rest.clear();
        int w = 0;
        for (int i = 0; i < runq.size(); i++) {
            CreditVcpu s = runq.get(i);
            if (s.pri >= CreditVcpu.PRI_UNDER) {
                runq.set(w++, s);
            } else {
                rest.add(s);
            }
        }
        for (int i = 0; i < rest.size(); i++) {
            runq.set(w++, rest.get(i));
        }
        rest.clear();
        markQueued();
    }
}
