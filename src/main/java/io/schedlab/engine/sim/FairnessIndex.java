package io.schedlab.engine.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * Jain's fairness index, J = (sum x)^2 / (n * sum x^2) (R. Jain, D. Chiu, W. Hawe, "A Quantitative
 * Measure of Fairness and Discrimination for Resource Allocation in Shared Computer Systems",
 * DEC-TR-301, 1984), of weighted CPU rates: x = CPU time / (lifetime x weight). Counting the rate
 * while alive (not the total) makes two identical finite VMs equal however long they took; dividing
 * by the weight makes 1 mean "CPU in proportion to weight", as Xen's credit schedulers promise.
 * Only competing VMs count: those that wanted CPU for at least {@link #MIN_DEMAND_SHARE} of their
 * lifetime (an idle dom0 that wakes now and then does not, whatever CPU it got).
 */
final class FairnessIndex {
    /**
     * Demand share (running or runnable time over vcpus x lifetime) from which a VM competes: a VM
     * that wanted CPU at least half of its lifetime. Every VM's demand share is in the result, so a
     * reader can recompute the index with another threshold.
     */
    static final double MIN_DEMAND_SHARE = 0.5;

    private final List<String> names = new ArrayList<>();
    private double sum;
    private double sumOfSquares;

    /** Adds one VM's CPU time over {@code lifetimeNanos} at {@code weight}. */
    void add(String name, long cpuNanos, long lifetimeNanos, int weight) {
        double x = lifetimeNanos <= 0 ? 0 : (double) cpuNanos / lifetimeNanos / Math.max(1, weight);
        names.add(name);
        sum += x;
        sumOfSquares += x * x;
    }

    /** The index, 1 when every rate is 0 (nobody was favoured), null with no VM. */
    Double index() {
        if (names.isEmpty()) {
            return null;
        }
        return sumOfSquares == 0 ? 1.0 : sum * sum / (names.size() * sumOfSquares);
    }

    List<String> names() {
        return List.copyOf(names);
    }

    /** Running or runnable time over vcpus x lifetime, 0..1 (0 for a VM that never lived). */
    static double demandShare(long cpuNanos, long runnableWaitNanos, int vcpus, long lifetimeNanos) {
        if (lifetimeNanos <= 0 || vcpus <= 0) {
            return 0;
        }
        return Math.min(1.0, (double) (cpuNanos + runnableWaitNanos) / ((double) vcpus * lifetimeNanos));
    }
}
