package io.schedlab.engine.sim;

import java.util.Arrays;

/**
 * The slice timer of every pCPU (Xen's s_timer, set from the decision's run time), coalesced: each
 * keeps its deadline and at most one useful queued event. A new event is queued only when the
 * deadline moves earlier than the queued one; a queued event that fires before the deadline
 * re-arms itself at the deadline; events of earlier pushes are stale.
 */
final class SliceTimers {
    private final Simulator sim;
    private final long[] deadline;
    /** Time of the queued event that is still useful (NEVER: none). */
    private final long[] pendingAt;
    /** Id of the latest queued event; older ids are stale. */
    private final int[] pushId;

    SliceTimers(Simulator sim, int pcpus) {
        this.sim = sim;
        deadline = new long[pcpus];
        pendingAt = new long[pcpus];
        pushId = new int[pcpus];
        Arrays.fill(deadline, Simulator.NEVER);
        Arrays.fill(pendingAt, Simulator.NEVER);
    }

    /** The slice on p ends at {@code at} (NEVER: no slice timer). */
    void set(int p, long at) {
        deadline[p] = at;
        if (at < pendingAt[p]) {
            pendingAt[p] = at;
            sim.push(at, Simulator.EV_SLICE, p, ++pushId[p]);
        }
    }

    /** True when the slice event {@code id} of p was superseded or already consumed. */
    boolean isStale(int p, int id) {
        return id != pushId[p] || pendingAt[p] == Simulator.NEVER;
    }

    /**
     * Slice event {@code id} of p fired at {@code now}: true when p's slice is over (the caller
     * reschedules p); a deadline moved later is re-armed, a stale event ignored.
     */
    boolean fire(int p, int id, long now) {
        if (isStale(p, id)) {
            return false; // superseded by an earlier one
        }
        pendingAt[p] = Simulator.NEVER;
        long at = deadline[p];
        if (at <= now) {
            deadline[p] = Simulator.NEVER;
            return true;
        }
        if (at != Simulator.NEVER) {
            set(p, at);
        }
        return false;
    }
}
