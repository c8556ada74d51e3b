package io.schedlab.engine.workloads;

import java.util.Map;

/**
 * What one rt-app thread measured of its timer activations: the period between consecutive activations (the
 * instants it ran again after a timer event), the lateness of each wake-up after its expiry (rt-app's wu_lat),
 * missed expiries (reached late: no sleep), and completed phase iterations (rt-app logs one row per iteration).
 */
final class RtAppThreadStats {
    private long activations;
    private long missed;
    private long lastActivation = -1;
    private long periods;
    private long periodSum;
    private long periodMin = Long.MAX_VALUE;
    private long periodMax;
    private long woken;
    private long latenessSum;
    private long latenessMax;
    private long phaseLoops;

    /** The thread runs again at {@code now} after a timer event. */
    void activation(long now) {
        activations++;
        if (lastActivation >= 0) {
            long period = now - lastActivation;
            periods++;
            periodSum += period;
            periodMin = Math.min(periodMin, period);
            periodMax = Math.max(periodMax, period);
        }
        lastActivation = now;
    }

    void woke(long latenessNanos) {
        woken++;
        latenessSum += latenessNanos;
        latenessMax = Math.max(latenessMax, latenessNanos);
    }

    void missed() {
        missed++;
    }

    void phaseLoopDone() {
        phaseLoops++;
    }

    long activations() {
        return activations;
    }

    long missedTimers() {
        return missed;
    }

    /** Adds this thread's figures to {@code details} under {@code prefix.} (periods and lateness in us). */
    void report(String prefix, Map<String, Double> details) {
        details.put(prefix + ".activations", (double) activations);
        details.put(prefix + ".periodMeanUs", periods == 0 ? 0.0 : periodSum / (double) periods / 1e3);
        details.put(prefix + ".periodMinUs", periods == 0 ? 0.0 : periodMin / 1e3);
        details.put(prefix + ".periodMaxUs", periodMax / 1e3);
        details.put(prefix + ".latenessMeanUs", woken == 0 ? 0.0 : latenessSum / (double) woken / 1e3);
        details.put(prefix + ".latenessMaxUs", latenessMax / 1e3);
        details.put(prefix + ".missedTimers", (double) missed);
        details.put(prefix + ".phaseLoops", (double) phaseLoops);
    }
}
