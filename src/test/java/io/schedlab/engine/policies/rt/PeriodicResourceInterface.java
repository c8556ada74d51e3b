package io.schedlab.engine.policies.rt;

/**
 * Compositional scheduling analysis of one implicit-deadline periodic task under EDF on a periodic resource
 * Γ(Π, Θ) (Shin and Lee, "Periodic Resource Model for Compositional Real-Time Guarantees", RTSS 2003, the model
 * RT-Xen 2.0 uses for the interfaces of guests with partitioned EDF): the least budget Θ per period Π whose
 * supply bound function covers the task's demand bound function.
 */
record PeriodicResourceInterface(long periodUs, long budgetUs) {

    /** The server's bandwidth Θ/Π. */
    double bandwidth() {
        return (double) budgetUs / periodUs;
    }

    /**
     * sbf_Γ(t) (Shin and Lee 2003, Theorem 1): the least supply in any window of length t, after the worst
     * blackout of 2(Π-Θ): y·Θ + max(0, t - 2(Π-Θ) - y·Π) with y = floor((t - (Π-Θ)) / Π), 0 for t < Π-Θ.
     */
    static long supplyBound(long periodUs, long budgetUs, long t) {
        long gap = periodUs - budgetUs;
        if (t < gap) {
            return 0;
        }
        long y = (t - gap) / periodUs;
        return y * budgetUs + Math.max(0, t - 2 * gap - y * periodUs);
    }

    /**
     * The least budget (1 us steps) for server period {@code periodUs} such that dbf(t) = floor(t/T)·C is at most
     * sbf(t) at every deadline t = k·T up to the hyperperiod of T and Π (dbf only steps at deadlines).
     */
    static PeriodicResourceInterface minimal(long runUs, long taskPeriodUs, long periodUs) {
        long lo = 1;
        long hi = periodUs;
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            if (covers(runUs, taskPeriodUs, periodUs, mid)) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return new PeriodicResourceInterface(periodUs, lo);
    }

    /** dbf ≤ sbf at every deadline within the hyperperiod (sbf grows monotonically in Θ, so bisection holds). */
    static boolean covers(long runUs, long taskPeriodUs, long periodUs, long budgetUs) {
        long hyper = taskPeriodUs / gcd(taskPeriodUs, periodUs) * periodUs;
        for (long k = 1; k * taskPeriodUs <= hyper; k++) {
            if (k * runUs > supplyBound(periodUs, budgetUs, k * taskPeriodUs)) {
                return false;
            }
        }
        return true;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
