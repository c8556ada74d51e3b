package io.schedlab.engine.workloads;

/**
 * One rt-app timer resource (rt-app.c run_event, case rtapp_timer): its next expiry starts at the first user's
 * start time and moves on by the period at each timer event, whatever the thread did in between, so a late
 * thread does not shift later expiries. When the thread reaches the event at or after the expiry it does not
 * sleep (a missed activation); in relative mode the reference then moves to that moment, in absolute mode it stays
 * and the thread catches up.
 */
final class RtAppTimer {
    private final boolean relative;
    private boolean started;
    private long next;

    RtAppTimer(boolean relative) {
        this.relative = relative;
    }

    /** Advance by {@code periodNanos} (starting from {@code firstNanos} on first use); returns the expiry. */
    long advance(long firstNanos, long periodNanos) {
        if (!started) {
            started = true;
            next = firstNanos;
        }
        next += periodNanos;
        return next;
    }

    /** The thread came {@code now}, at or after the expiry: relative timers restart from now. */
    void missed(long now) {
        if (relative) {
            next = now;
        }
    }
}
