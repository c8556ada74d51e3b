package io.schedlab.engine.policies;

/**
 * Optional capability: the policy reports the queue work it does under its lock, and the simulator charges
 * hold = base + {@code lockPerEntryNanos} x work on every locked path (schedule, context_saved as its own step
 * after the switch, wake, policy timers) instead of the per-sharer charge.
 */
public interface LockWork {

    /** Queue entries walked or inserted since the last call (and resets the count). */
    long takeLockWork();

    /** The policy's lock work report, or null when it has none. */
    static LockWork of(SchedulerPolicy policy) {
        return policy instanceof LockWork w ? w : null;
    }
}
