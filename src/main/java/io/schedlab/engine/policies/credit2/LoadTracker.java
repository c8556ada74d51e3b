package io.schedlab.engine.policies.credit2;

/**
 * credit2 load averages (credit2.c {@code update_runq_load}, {@code update_svc_load}): an
 * exponentially weighted average over a window of 2^loadWindowShift ns of the number of runnable
 * vCPUs of a run queue, and of whether one vCPU is runnable. Time is sampled in units of
 * 2^granularityShift ns ({@code now >>= LOADAVG_GRANULARITY_SHIFT}), so an interval is the difference
 * of the two sampled instants. An interval longer than the window replaces the average; a shorter one
 * of d units mixes it in with weight d / window.
 */
final class LoadTracker {
    /** Window in sampling units. */
    private final long window;
    private final int granularityShift;
    /**
     * 1 / window, exact (a power of two): x * invWindow is bit-identical to x / window, as both
     * round the same real number once, and saves a division on every load update.
     */
    private final double invWindow;

    LoadTracker(int windowShift, int granularityShift) {
        this.granularityShift = granularityShift;
        this.window = 1L << (windowShift - granularityShift);
        this.invWindow = 1.0 / window;
    }

    /** Fold the time since the last update into rqd's average, then apply {@code change} to its load. */
    void updateRunq(Credit2Runqueue rqd, int change, long now) {
        rqd.avgload = average(rqd.avgload, rqd.load, units(now) - units(rqd.loadLastUpdate));
        rqd.load += change;
        rqd.loadLastUpdate = now;
    }

    /** Fold the time since the last update into the vCPU's average of being runnable. */
    void updateSvc(Credit2Vcpu svc, long now) {
        svc.avgload = average(svc.avgload, svc.loaded ? 1 : 0, units(now) - units(svc.loadLastUpdate));
        svc.loadLastUpdate = now;
    }

    private long units(long nanos) {
        return nanos >> granularityShift;
    }

    /** The average after {@code delta} sampling units at {@code load}. */
    double average(double avg, double load, long delta) {
        if (delta >= window) {
            return load;
        }
        if (delta > 0) {
            return (delta * load + (window - delta) * avg) * invWindow;
        }
        return avg;
    }
}
