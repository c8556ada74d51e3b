package io.schedlab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.kagkarlsson.scheduler.event.SchedulerListener.SchedulerEventType;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A stale heartbeat counts only once this process has checked without a gap for the dead threshold: at once
 * in steady running and at start, not until the threshold has passed again after its own database outage.
 */
class UnbrokenDeadChecksTest {

    private static final Duration HEARTBEAT = Duration.ofSeconds(1);
    private static final Duration DEAD_AFTER = HEARTBEAT.multipliedBy(6);
    private static final Duration CHECK_EVERY = HEARTBEAT.multipliedBy(2);

    private final AtomicLong clock = new AtomicLong(5_000_000_000L);
    private final UnbrokenDeadChecks checks = new UnbrokenDeadChecks(UnbrokenDeadChecks.gapAfter(HEARTBEAT),
            clock::get);

    private void check() {
        clock.addAndGet(CHECK_EVERY.toNanos());
        checks.onSchedulerEvent(SchedulerEventType.RAN_DETECT_DEAD);
    }

    @Test
    void aProcessThatKnowsOfNoGapJudgesAtOnce() {
        assertThat(checks.unbrokenFor(DEAD_AFTER)).as("before the first check").isTrue();
        check();
        assertThat(checks.unbrokenFor(DEAD_AFTER)).as("right after the first check").isTrue();
        for (int i = 0; i < 10; i++) {
            check();
            assertThat(checks.watchedFor(DEAD_AFTER).getAsBoolean()).isTrue();
        }
    }

    @Test
    void afterAnOutageItWaitsTheDeadThresholdOfUnbrokenChecks() {
        check();
        check();
        clock.addAndGet(Duration.ofSeconds(60).toNanos()); // every check failed: no event
        assertThat(checks.unbrokenFor(DEAD_AFTER)).as("the first check after the outage").isFalse();
        checks.onSchedulerEvent(SchedulerEventType.RAN_DETECT_DEAD);
        check();
        check();
        assertThat(checks.unbrokenFor(DEAD_AFTER)).as("4 s after the return").isFalse();
        check();
        assertThat(checks.unbrokenFor(DEAD_AFTER)).as("6 s after the return").isTrue();
    }

    @Test
    void oneLateCheckIsNoGapButOtherEventsAreNoCheck() {
        check();
        clock.addAndGet(CHECK_EVERY.toNanos()); // one check took a whole period longer
        check();
        assertThat(checks.unbrokenFor(DEAD_AFTER)).isTrue();
        for (int i = 0; i < 5; i++) {
            clock.addAndGet(CHECK_EVERY.toNanos());
            checks.onSchedulerEvent(SchedulerEventType.RAN_UPDATE_HEARTBEATS);
        }
        assertThat(checks.unbrokenFor(DEAD_AFTER)).as("10 s without a successful check").isFalse();
    }
}
