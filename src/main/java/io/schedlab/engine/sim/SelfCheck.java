package io.schedlab.engine.sim;

import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.policies.SelfCheckAssumptions;

/**
 * Invariant checks run after every event when enabled (tests): no vCPU on two pCPUs, every running
 * vCPU inside its hard affinity and in state RUNNING, and for work-conserving policies no allowed
 * pCPU idle for longer than the balance period while a vCPU waited that long: either in one stretch,
 * or in total over the wait (a pCPU that idles most of a long wait, woken now and then, is the
 * same lost work, as when vCPUs move between run queues as a herd); for a policy whose re-queue
 * tickles nobody ({@code requeueTicklesIdlers() == false}) only waits since a placement count. For a
 * policy that balances run queues by load ({@code boundsWaitsPerPlacement()}) the bound also holds for the
 * sum over all of a vCPU's waits since it was placed on its run queue: a balancer that never moves
 * anything leaves vCPUs taking short turns on one queue while another idles, each wait short.
 */
final class SelfCheck {
    private final RunView sim;
    /** What the policy lets the check assume about waits. */
    private final SelfCheckAssumptions assumptions;
    /** Hard affinity of each vCPU when the policy last placed it (wake or migration), by uid. */
    private final java.util.ArrayList<java.util.BitSet> placedAffinity = new java.util.ArrayList<>();
    /** When the policy last placed each vCPU since it last ran (-1: not placed since), by uid. */
    private long[] placedAt = new long[0];
    private int[] seenAt = new int[0];
    /** Per vCPU uid: the runnableSince its idle snapshot belongs to, and each pCPU's idle total then. */
    private long[] snapshotFor = new long[0];
    private long[][] idleAtSnapshot = new long[0][];
    private int stamp;
    /** Per vCPU uid (policies that bound waits per placement): run queue and start of its current stint. */
    private int[] stintRq = new int[0];
    private long[] stintStart = new long[0];
    /** Per vCPU uid and pCPU: idle ns of that pCPU during the stint's finished waits. */
    private long[][] stranded = new long[0][];

    SelfCheck(RunView sim) {
        this.sim = sim;
        this.assumptions = sim.assumptions();
    }

    void afterEvent() {
        int n = sim.vcpus().size();
        if (seenAt.length < n) {
            seenAt = new int[Math.max(n, seenAt.length * 2)];
        }
        stamp++;
        int running = 0;
        for (int p = 0; p < sim.pcpuCount(); p++) {
            Vcpu c = sim.pcpu(p).current;
            if (sim.runningOn(p) != (c == null ? null : sim.vcpus().get(c.uid))) {
                fail("pcpu" + p + " runs " + c + " but the simulator's running table says " + sim.runningOn(p));
            }
            if (c == null) {
                continue;
            }
            if (seenAt[c.uid] == stamp) {
                fail(c + " is current on two pCPUs (second: pcpu" + p + ")");
            }
            seenAt[c.uid] = stamp;
            if (sim.rescheduleAfterSwitchTail(p) && c.state != VcpuState.RUNNING) {
                continue; // blocked or moved while p finishes its context_saved: p reschedules right after it
            }
            running++;
            if (c.state != VcpuState.RUNNING) {
                fail(c + " is current on pcpu" + p + " but " + c.state);
            }
            if (c.processor != p) {
                fail(c + " is current on pcpu" + p + " but its processor is " + c.processor);
            }
            if (!c.allowedOn(p)) {
                fail(c + " runs on pcpu" + p + " outside its hard affinity " + c.hardAffinity);
            }
        }
        int runningState = 0;
        for (VcpuRun vr : sim.vcpus()) {
            if (vr.v.state == VcpuState.RUNNING) {
                runningState++;
            }
        }
        if (runningState != running) {
            fail(runningState + " vCPUs are RUNNING but " + running + " pCPUs have a current vCPU");
        }
        if (assumptions.workConserving() && assumptions.boundsWaitsPerPlacement()) {
            snapshotNewWaits(); // every event, so each wait's idle overlap counts from its first instant
        }
        if (assumptions.workConserving() && (sim.events() & 7) == 0) {
            checkWorkConserving();
        }
    }

    private void checkWorkConserving() {
        for (VcpuRun vr : sim.vcpus()) {
            if (vr.v.state == VcpuState.RUNNABLE && !vr.migrating) {
                snapshot(vr);
                checkWait(vr);
            }
        }
    }

    private void snapshotNewWaits() {
        for (VcpuRun vr : sim.vcpus()) {
            if (vr.v.state == VcpuState.RUNNABLE && !vr.migrating) {
                snapshot(vr);
            }
        }
    }

    /** Idle time of every pCPU when vr's current wait was first seen (taken at most 8 events late: conservative). */
    private void snapshot(VcpuRun vr) {
        int uid = vr.v.uid;
        if (snapshotFor.length <= uid) {
            int n = Math.max(uid + 1, snapshotFor.length * 2);
            int old = snapshotFor.length;
            snapshotFor = java.util.Arrays.copyOf(snapshotFor, n);
            java.util.Arrays.fill(snapshotFor, old, n, Long.MIN_VALUE);
            idleAtSnapshot = java.util.Arrays.copyOf(idleAtSnapshot, n);
        }
        if (snapshotFor[uid] == vr.runnableSince) {
            return;
        }
        snapshotFor[uid] = vr.runnableSince;
        long[] idle = idleAtSnapshot[uid] == null ? new long[sim.pcpuCount()] : idleAtSnapshot[uid];
        for (int p = 0; p < sim.pcpuCount(); p++) {
            idle[p] = idleTotal(p);
        }
        idleAtSnapshot[uid] = idle;
    }

    /** Idle ns of pCPU p up to now, including the current idle stretch. */
    private long idleTotal(int p) {
        long idle = sim.idleNanos(p);
        if (sim.pcpu(p).current == null) {
            idle += Math.max(0, sim.now() - sim.idleSince(p));
        }
        return idle;
    }

    /** Idle ns of p since vr's wait was first seen, or 0 when no snapshot belongs to this wait. */
    private long idleDuringWait(VcpuRun vr, int p) {
        int uid = vr.v.uid;
        if (uid >= snapshotFor.length || snapshotFor[uid] != vr.runnableSince) {
            return 0;
        }
        return idleTotal(p) - idleAtSnapshot[uid][p];
    }

    /**
     * The policy placed vr (pickCpu + wake). Work conservation is judged against the hard affinity
     * at that moment: widening the affinity of a queued vCPU whose pCPU stays allowed re-places
     * nothing in Xen (vcpu_set_affinity only migrates when the current pCPU is no longer allowed),
     * so newly allowed pCPUs count from the next placement.
     */
    void onPlaced(VcpuRun vr) {
        int uid = vr.v.uid;
        while (placedAffinity.size() <= uid) {
            placedAffinity.add(null);
        }
        placedAffinity.set(uid, (java.util.BitSet) vr.v.hardAffinity.clone());
        growPlacedAt(uid);
        placedAt[uid] = sim.now();
        if (assumptions.boundsWaitsPerPlacement()) {
            newStint(vr);
        }
    }

    /** vr's stint (its time on one run queue since a placement, a move or an affinity change) starts now. */
    private void newStint(VcpuRun vr) {
        int uid = vr.v.uid;
        if (stintRq.length <= uid) {
            int n = Math.max(uid + 1, stintRq.length * 2);
            stintRq = java.util.Arrays.copyOf(stintRq, n);
            stintStart = java.util.Arrays.copyOf(stintStart, n);
            stranded = java.util.Arrays.copyOf(stranded, n);
        }
        stintRq[uid] = sim.runqueueOf(vr.v.processor);
        stintStart[uid] = sim.now();
        if (stranded[uid] == null) {
            stranded[uid] = new long[sim.pcpuCount()];
        } else {
            java.util.Arrays.fill(stranded[uid], 0);
        }
    }

    /** vr's stranded totals, restarted when the policy moved it to another run queue or its affinity changed. */
    private long[] stint(VcpuRun vr) {
        int uid = vr.v.uid;
        if (uid >= stintRq.length || stranded[uid] == null
                || stintRq[uid] != sim.runqueueOf(vr.v.processor)
                || vr.affinityChangedAt > stintStart[uid]) {
            newStint(vr);
        }
        return stranded[uid];
    }

    /** Called as a vCPU leaves the run queue: its whole wait is checked against the pCPUs idle now. */
    void beforeStart(VcpuRun vr) {
        if (assumptions.workConserving() && !vr.migrating) {
            checkWait(vr);
            if (assumptions.boundsWaitsPerPlacement()) {
                long[] total = stint(vr);
                for (int p = 0; p < sim.pcpuCount(); p++) {
                    total[p] += idleDuringWait(vr, p);
                }
            }
        }
        growPlacedAt(vr.v.uid);
        placedAt[vr.v.uid] = -1;
    }

    /** Make room for uid in {@link #placedAt} (new entries -1). */
    private void growPlacedAt(int uid) {
        if (placedAt.length <= uid) {
            int old = placedAt.length;
            placedAt = java.util.Arrays.copyOf(placedAt, Math.max(uid + 1, old * 2));
            java.util.Arrays.fill(placedAt, old, placedAt.length, -1);
        }
    }

    private void checkWait(VcpuRun vr) {
        long bp = assumptions.balancePeriodNanos();
        long now = sim.now();
        long since = vr.runnableSince;
        if (assumptions.boundsWaitsPerPlacement()) {
            checkStint(vr, bp);
        }
        if (!assumptions.requeueTicklesIdlers()) {
            // Only a placement (wake, migration) offers the vCPU to idle pCPUs: a vCPU re-queued
            // after running and not placed since is not bound, and a placed one counts from then.
            growPlacedAt(vr.v.uid);
            long placedTime = placedAt[vr.v.uid];
            if (placedTime < 0) {
                return;
            }
            since = Math.max(since, placedTime);
        }
        if (now - since <= bp) {
            return;
        }
        java.util.BitSet placed = vr.v.uid < placedAffinity.size() ? placedAffinity.get(vr.v.uid) : null;
        for (int p = vr.v.hardAffinity.nextSetBit(0); p >= 0; p = vr.v.hardAffinity.nextSetBit(p + 1)) {
            if (placed != null && !placed.get(p)) {
                continue;
            }
            if (sim.pcpu(p).current == null && sim.overheadUntil(p) <= now
                    && now - Math.max(Math.max(since, vr.affinityChangedAt), sim.idleSince(p)) > bp) {
                fail(vr.v + " waited " + (now - vr.runnableSince) + " ns while allowed pcpu" + p + " was idle"
                        + " since " + sim.idleSince(p) + " (balance period " + bp + " ns, policy "
                        + sim.policyName() + ")");
            }
            if (vr.affinityChangedAt <= vr.runnableSince && idleDuringWait(vr, p) > bp) {
                fail(vr.v + " waited " + (now - vr.runnableSince) + " ns while allowed pcpu" + p + " was idle "
                        + idleDuringWait(vr, p) + " ns of it (balance period " + bp + " ns, policy "
                        + sim.policyName() + ")");
            }
        }
    }

    /** The sum of vr's waits on its run queue beside each idle allowed pCPU stays within the bound. */
    private void checkStint(VcpuRun vr, long bp) {
        long[] total = stint(vr);
        java.util.BitSet placed = vr.v.uid < placedAffinity.size() ? placedAffinity.get(vr.v.uid) : null;
        for (int p = vr.v.hardAffinity.nextSetBit(0); p >= 0; p = vr.v.hardAffinity.nextSetBit(p + 1)) {
            if (placed != null && !placed.get(p)) {
                continue;
            }
            long beside = total[p] + idleDuringWait(vr, p);
            if (beside > bp) {
                fail(vr.v + " waited " + beside + " ns in all beside idle allowed pcpu" + p + " since "
                        + stintStart[vr.v.uid] + " on run queue " + stintRq[vr.v.uid] + " (balance period " + bp
                        + " ns, policy " + sim.policyName() + ")");
            }
        }
    }

    private void fail(String message) {
        throw new IllegalStateException("self-check at " + sim.now() + " ns (event " + sim.events() + "): " + message);
    }
}
