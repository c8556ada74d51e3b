package io.schedlab.engine.sim;

import io.schedlab.engine.costs.CostModel;

/**
 * The scheduler locks of a run as a cost mechanism: one busy-until time per lock domain (dense ids), FIFO in
 * event order, and the hold time of each locked path.
 * <ul>
 * <li>Policies that do not report their lock work (credit, credit2, static, null) hold a decision for
 * {@code decisionBaseNanos + lockHoldPerSharerNanos x (sharers - 1)} and (Xen's path only) context_saved for
 * {@code contextSavedNanos}; their wake-ups and timers take no lock time (the charge of earlier releases).</li>
 * <li>Policies that report it ({@code SchedulerPolicy.reportsLockWork}) hold each path for its base
 * ({@code decisionBaseNanos}, {@code contextSavedNanos}, {@code lockBaseNanos} for wake-ups and timers) plus
 * {@code lockPerEntryNanos} per queue entry walked or inserted under the lock, so a global queue scanned by 48
 * pCPUs costs more than by 6; context_saved then runs as its own step at the end of the switch, so it queues
 * behind decisions that reached the lock first.</li>
 * </ul>
 */
final class LockModel {
    private final CostModel costs;
    private final boolean perWork;
    private final long[] busyUntil;
    private final long[] sharerHold;

    LockModel(CostModel costs, int[] sharers, boolean perWork) {
        this.costs = costs;
        this.perWork = perWork;
        this.busyUntil = new long[sharers.length];
        this.sharerHold = new long[sharers.length];
        for (int l = 0; l < sharers.length; l++) {
            sharerHold[l] = costs.decisionHoldNanos(sharers[l]);
        }
    }

    /** True when holds follow the policy's reported work (and context_saved is its own step). */
    boolean perWork() {
        return perWork;
    }

    /** Takes {@code lock} arriving at {@code arrival} for {@code hold}: returns the wait before it is held. */
    long acquire(int lock, long arrival, long hold) {
        long wait = Math.max(0, busyUntil[lock] - arrival);
        busyUntil[lock] = arrival + wait + hold;
        return wait;
    }

    /** Hold of one do_schedule that did {@code work}. */
    long decisionHold(int lock, long work) {
        return perWork ? costs.decisionBaseNanos() + costs.lockPerEntryNanos() * work : sharerHold[lock];
    }

    /** Hold of one context_saved that did {@code work}. */
    long contextSavedHold(long work) {
        return costs.contextSavedNanos() + (perWork ? costs.lockPerEntryNanos() * work : 0);
    }

    /** Hold of a wake-up or policy timer that did {@code work} (0 for policies that report no work). */
    long otherHold(long work) {
        return perWork ? costs.lockBaseNanos() + costs.lockPerEntryNanos() * work : 0;
    }
}
