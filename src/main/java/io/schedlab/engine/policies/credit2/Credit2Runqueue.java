package io.schedlab.engine.policies.credit2;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * One credit2 run queue (struct csched2_runqueue_data): its pCPUs, the queue sorted by credit,
 * every vCPU assigned here, idle/tickled/SMT-idle masks, max weight and load averages.
 */
final class Credit2Runqueue {
    final int id;
    final BitSet active = new BitSet();
    /** {@link #active} as words, copied once the pCPUs are assigned ({@link #activeAssigned}). */
    CpuMask activeMask;
    /** Waiting vCPUs, highest credit first, FIFO among equals (runq_insert): the first {@link #queued} slots. */
    private Credit2Vcpu[] runq = new Credit2Vcpu[16];
    /**
     * Credit of each waiting vCPU, slot by slot, so runq_insert scans an array instead of
     * chasing each vCPU: kept equal to {@code runq[i].credit} by {@link #creditChanged} and
     * {@link #creditsChanged}, called wherever a queued vCPU's credit may change.
     */
    private long[] runqCredit = new long[16];
    private int queued;
    /** Every vCPU assigned here (rqd->svc), in assignment order. */
    final List<Credit2Vcpu> svcs = new ArrayList<>();
    final CpuMask idle;
    final CpuMask tickled;
    final CpuMask smtIdle;
    /** Runnable vCPUs assigned here (rqd->load). */
    int load;
    /** EWMA of load (rqd->b_avgload), in vCPUs. */
    double avgload;
    long loadLastUpdate;
    int pickBias;

    /** A run queue whose masks hold pCPUs 0..cpus-1. */
    Credit2Runqueue(int id, int cpus) {
        this.id = id;
        this.idle = new CpuMask(cpus);
        this.tickled = new CpuMask(cpus);
        this.smtIdle = new CpuMask(cpus);
        this.activeMask = new CpuMask(cpus);
    }

    /** For load-only tests: masks for up to 64 pCPUs. */
    Credit2Runqueue(int id) {
        this(id, 64);
    }

    /** The pCPUs in {@link #active} are final: copy them to {@link #activeMask}. */
    void activeAssigned(int cpus) {
        activeMask = CpuMask.of(active, cpus);
    }

    /** Number of waiting vCPUs. */
    int queued() {
        return queued;
    }

    /** The i-th waiting vCPU (0: the most credit). */
    Credit2Vcpu queuedAt(int i) {
        return runq[i];
    }

    /** runq_insert: after every waiting vCPU with at least svc's credit. */
    void insert(Credit2Vcpu svc) {
        long credit = svc.credit;
        long[] cr = runqCredit;
        int n = queued;
        int i = 0;
        while (i < n && cr[i] >= credit) {
            i++;
        }
        if (n == runq.length) {
            runq = Arrays.copyOf(runq, n * 2);
            runqCredit = cr = Arrays.copyOf(cr, n * 2);
        }
        System.arraycopy(runq, i, runq, i + 1, n - i);
        System.arraycopy(cr, i, cr, i + 1, n - i);
        runq[i] = svc;
        cr[i] = credit;
        queued = n + 1;
        svc.onRunq = true;
    }

    void remove(Credit2Vcpu svc) {
        if (!svc.onRunq) {
            return;
        }
        int n = queued;
        for (int i = 0; i < n; i++) {
            if (runq[i] == svc) {
                System.arraycopy(runq, i + 1, runq, i, n - i - 1);
                System.arraycopy(runqCredit, i + 1, runqCredit, i, n - i - 1);
                runq[n - 1] = null;
                queued = n - 1;
                svc.onRunq = false;
                return;
            }
        }
    }

    /** svc's credit changed: refresh its slot if it waits here. */
    void creditChanged(Credit2Vcpu svc) {
        for (int i = 0; i < queued; i++) {
            if (runq[i] == svc) {
                runqCredit[i] = svc.credit;
                return;
            }
        }
    }

    /** Credits of waiting vCPUs changed (reset_credit): refresh every slot. */
    void creditsChanged() {
        for (int i = 0; i < queued; i++) {
            runqCredit[i] = runq[i].credit;
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
