package io.schedlab.engine.policies.credit2;

import io.schedlab.engine.model.Vcpu;
import java.util.ArrayList;
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
    /**
     * Waiting vCPUs, highest credit first, FIFO among equals (runq_insert), by {@link Vcpu#uid}:
     * logical slot i is {@code runq[(head + i) & (runq.length - 1)]}, i < {@link #queued}. A ring,
     * so taking the head (what do_schedule mostly does) or inserting near either end moves few
     * slots; ints, so moving them needs no GC write barrier (a reference store into this old array
     * does).
     */
    private int[] runq = new int[16];
    /** The vCPUs ever queued here, by uid ({@link #queuedAt} maps a slot back). */
    private Credit2Vcpu[] byUid = new Credit2Vcpu[16];
    /**
     * Credit of each waiting vCPU, slot by slot, so runq_insert reads an array instead of chasing
     * each vCPU: kept equal to {@code runq[i].credit} by {@link #creditChanged} and
     * {@link #creditsChanged}, called wherever a queued vCPU's credit may change.
     */
    private long[] runqCredit = new long[16];
    private int head;
    private int queued;
    /**
     * True while the credits are known to be non-increasing from the head (inserts keep that,
     * {@link #creditsChanged} re-checks it, one waiting vCPU's credit moving out of order clears
     * it): then the first slot with less credit can be found from the back, which gives the same
     * slot as runq_insert's scan from the front.
     */
    private boolean sorted = true;
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
    /** Ends of the Tickler's list of this queue's pCPUs by start time (-1: empty). */
    int byStartFirst = -1;
    int byStartLast = -1;

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
        return byUid[runq[(head + i) & (runq.length - 1)]];
    }

    /** The i-th waiting vCPU's credit copy (equal to {@code queuedAt(i).credit}; {@link #copiesInStep}). */
    private long creditAt(int i) {
        return runqCredit[(head + i) & (runq.length - 1)];
    }

    /** The credit of the waiting vCPU with the most (queue not empty), read from its copy. */
    long headCredit() {
        assert creditAt(0) == queuedAt(0).credit : "run queue " + id + ": stale credit copy";
        return creditAt(0);
    }

    /** runq_insert: after every waiting vCPU with at least svc's credit. */
    void insert(Credit2Vcpu svc) {
        assert copiesInStep() : "run queue " + id + ": a waiting vCPU's credit changed without creditChanged()";
        long credit = svc.credit;
        int n = queued;
        if (n == runq.length) {
            grow();
        }
        int i;
        if (sorted) {
            // the first slot with less credit, as the scan below finds it when the credits are
            // non-increasing; searched from the back, where a vCPU that just ran mostly lands
            i = n;
            while (i > 0 && creditAt(i - 1) < credit) {
                i--;
            }
        } else {
            i = 0;
            while (i < n && creditAt(i) >= credit) {
                i++;
            }
        }
        int mask = runq.length - 1;
        if (i < n - i) {
            // slots [0, i) move one toward the front
            head = (head - 1) & mask;
            for (int k = 0; k < i; k++) {
                move((head + k + 1) & mask, (head + k) & mask);
            }
        } else {
            // slots [i, n) move one toward the back
            for (int k = n; k > i; k--) {
                move((head + k - 1) & mask, (head + k) & mask);
            }
        }
        int at = (head + i) & mask;
        runq[at] = slotOf(svc);
        runqCredit[at] = credit;
        queued = n + 1;
        svc.onRunq = true;
    }

    /**
     * The invariants insert relies on (checked with -ea, as in the tests): every credit copy equals
     * its vCPU's credit, and the queue is in credit order whenever {@link #sorted} says so.
     */
    private boolean copiesInStep() {
        for (int i = 0; i < queued; i++) {
            if (creditAt(i) != queuedAt(i).credit || (sorted && i > 0 && creditAt(i - 1) < creditAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** svc's uid, the table entry set on its first insert here (rewriting it would cost a write barrier each time). */
    private int slotOf(Credit2Vcpu svc) {
        int uid = svc.uid;
        if (uid >= byUid.length) {
            byUid = java.util.Arrays.copyOf(byUid, Math.max(uid + 1, byUid.length * 2));
        }
        if (byUid[uid] != svc) {
            assert byUid[uid] == null || !queuedUid(uid) : "uid " + uid + " of two vCPUs queued here";
            byUid[uid] = svc;
        }
        return uid;
    }

    private boolean queuedUid(int uid) {
        for (int k = 0; k < queued; k++) {
            if (runq[(head + k) & (runq.length - 1)] == uid) {
                return true;
            }
        }
        return false;
    }

    private void move(int from, int to) {
        runq[to] = runq[from];
        runqCredit[to] = runqCredit[from];
    }

    private void grow() {
        int n = queued;
        int[] r = new int[runq.length * 2];
        long[] c = new long[r.length];
        for (int k = 0; k < n; k++) {
            r[k] = runq[(head + k) & (runq.length - 1)];
            c[k] = creditAt(k);
        }
        runq = r;
        runqCredit = c;
        head = 0;
    }

    private int indexOf(Credit2Vcpu svc) {
        int uid = svc.uid;
        if (uid >= byUid.length || byUid[uid] != svc) {
            return -1; // never queued here
        }
        int mask = runq.length - 1;
        for (int k = 0; k < queued; k++) {
            if (runq[(head + k) & mask] == uid) {
                return k;
            }
        }
        return -1;
    }

    void remove(Credit2Vcpu svc) {
        if (!svc.onRunq) {
            return;
        }
        int j = indexOf(svc);
        if (j < 0) {
            return;
        }
        int n = queued;
        int mask = runq.length - 1;
        if (j < n - 1 - j) {
            // slots [0, j) move one toward the back
            for (int k = j; k > 0; k--) {
                move((head + k - 1) & mask, (head + k) & mask);
            }
            head = (head + 1) & mask;
        } else {
            // slots (j, n) move one toward the front
            for (int k = j; k < n - 1; k++) {
                move((head + k + 1) & mask, (head + k) & mask);
            }
        }
        queued = n - 1;
        if (queued == 0) {
            sorted = true;
        }
        svc.onRunq = false;
    }

    /** svc's credit changed: refresh its slot if it waits here. */
    void creditChanged(Credit2Vcpu svc) {
        int j = indexOf(svc);
        if (j < 0) {
            return;
        }
        long credit = svc.credit;
        runqCredit[(head + j) & (runq.length - 1)] = credit;
        if ((j > 0 && creditAt(j - 1) < credit) || (j < queued - 1 && credit < creditAt(j + 1))) {
            sorted = false;
        }
    }

    /** Credits of waiting vCPUs changed (reset_credit): refresh every slot. */
    void creditsChanged() {
        boolean inOrder = true;
        for (int k = 0; k < queued; k++) {
            Credit2Vcpu svc = queuedAt(k);
            runqCredit[(head + k) & (runq.length - 1)] = svc.credit;
            if (k > 0 && creditAt(k - 1) < svc.credit) {
                inOrder = false;
            }
        }
        sorted = inOrder;
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
