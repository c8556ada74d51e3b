package io.schedlab.engine.policies.credit2;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * One credit2 run queue (struct csched2_runqueue_data): its pCPUs, the queue sorted by credit,
 * every vCPU assigned to it, idle/tickled/SMT-idle masks, max weight and load averages.
 */
final class Credit2Runqueue {
    final int id;
    final BitSet active = new BitSet();
    /** Waiting vCPUs, highest credit first, FIFO among equals (runq_insert). */
    final List<Credit2Vcpu> runq = new ArrayList<>();
    /** Every vCPU assigned here (rqd->svc), in assignment order. */
    final List<Credit2Vcpu> svcs = new ArrayList<>();
    final BitSet idle = new BitSet();
    final BitSet tickled = new BitSet();
    final BitSet smtIdle = new BitSet();
    /** Runnable vCPUs assigned here (rqd->load). */
    int load;
    /** EWMA of load (rqd->b_avgload), in vCPUs. */
    double avgload;
    long loadLastUpdate;
    int pickBias;

    Credit2Runqueue(int id) {
        this.id = id;
    }

    void insert(Credit2Vcpu svc) {
        int i = 0;
        int n = runq.size();
        while (i < n && runq.get(i).credit >= svc.credit) {
            i++;
        }
        runq.add(i, svc);
        svc.onRunq = true;
    }

    void remove(Credit2Vcpu svc) {
        if (svc.onRunq && runq.remove(svc)) {
            svc.onRunq = false;
        }
    }

    /** rqd->max_weight: largest weight among assigned vCPUs (update_max_weight), cached. */
    int maxWeight = 1;

    void recomputeMaxWeight() {
        int m = 1;
        for (Credit2Vcpu s : svcs) {
            m = Math.max(m, s.weight);
        }
        maxWeight = m;
    }

    int cpus() {
        return active.cardinality();
    }
}
