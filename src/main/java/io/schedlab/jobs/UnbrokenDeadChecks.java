package io.schedlab.jobs;

import com.github.kagkarlsson.scheduler.event.AbstractSchedulerListener;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * How long this process's dead-execution checks have succeeded without a gap, so that a stale heartbeat is taken
 * for a dead replica only when this process could have seen it beat. db-scheduler checks every 2 heartbeat
 * intervals ({@code Scheduler}: {@code detectDeadWaiter = heartbeatInterval x 2}) and signals each successful check
 * ({@code SchedulerEventType.RAN_DETECT_DEAD}, at the end of {@code Scheduler.detectDeadExecutions}); a check that
 * cannot reach the database throws and signals nothing. After the database was away longer than the dead
 * threshold every running job's heartbeat is stale, those of live replicas too, and db-scheduler's first check
 * after the return would revive them all ({@code getDeadExecutions} selects by {@code last_heartbeat} alone;
 * {@code updateHeartbeats} only logs failures): the same run twice, on two replicas at once.
 */
final class UnbrokenDeadChecks extends AbstractSchedulerListener {

    private static final long NEVER = Long.MIN_VALUE;

    private final long gapNanos;
    private final LongSupplier nanoClock;
    private long lastCheck = NEVER;
    private long unbrokenSince = NEVER;

    /** {@code gap}: longer between two successful checks is a gap in this process's view of the database. */
    UnbrokenDeadChecks(Duration gap, LongSupplier nanoClock) {
        this.gapNanos = gap.toNanos();
        this.nanoClock = nanoClock;
    }

    /** Two check periods (each 2 heartbeat intervals): one late check is load, not a lost database. */
    static Duration gapAfter(Duration heartbeatInterval) {
        return heartbeatInterval.multipliedBy(4);
    }

    @Override
    public void onSchedulerEvent(SchedulerEventType type) {
        if (type == SchedulerEventType.RAN_DETECT_DEAD) {
            checked();
        }
    }

    /** A dead-execution check succeeded now. */
    synchronized void checked() {
        long now = nanoClock.getAsLong();
        if (lastCheck != NEVER && now - lastCheck > gapNanos) {
            unbrokenSince = now;
        }
        lastCheck = now;
    }

    /**
     * True when the checks have run without a gap for {@code span} up to now. Until the first check completes the
     * process knows of no gap (a process started after a crash revives its own earlier runs at once); a check
     * running now after a gap is not yet unbroken.
     */
    synchronized boolean unbrokenFor(Duration span) {
        if (lastCheck == NEVER) {
            return true;
        }
        long now = nanoClock.getAsLong();
        if (now - lastCheck > gapNanos) {
            return false;
        }
        return unbrokenSince == NEVER || now - unbrokenSince >= span.toNanos();
    }

    /** {@link #unbrokenFor} as a condition. */
    BooleanSupplier watchedFor(Duration span) {
        return () -> unbrokenFor(span);
    }
}
