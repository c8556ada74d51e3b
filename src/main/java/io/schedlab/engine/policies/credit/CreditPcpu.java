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

    CreditPcpu(int id) {
        this.id = id;
        this.idleBias = id;
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
    }

    void remove(CreditVcpu svc) {
        if (svc.onRunq && runq.remove(svc)) {
            svc.onRunq = false;
        }
    }

    CreditVcpu head() {
        return runq.isEmpty() ? null : runq.get(0);
    }

    /** csched_runq_sort: move UNDER/BOOST vCPUs ahead of the others, keeping relative order. */
    void sortByPriorityClass() {
        List<CreditVcpu> under = new ArrayList<>(runq.size());
        List<CreditVcpu> rest = new ArrayList<>(runq.size());
        for (CreditVcpu s : runq) {
            (s.pri >= CreditVcpu.PRI_UNDER ? under : rest).add(s);
        }
        runq.clear();
        runq.addAll(under);
        runq.addAll(rest);
    }
}
