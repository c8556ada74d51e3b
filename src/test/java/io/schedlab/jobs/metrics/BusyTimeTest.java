package io.schedlab.jobs.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The workers' held time: ended holds in full, current ones up to the read, whatever order they end in. */
class BusyTimeTest {

    private final AtomicLong clock = new AtomicLong(5_000_000_000L);
    private final BusyTime busy = new BusyTime(clock::get);

    private void advanceMillis(long ms) {
        clock.addAndGet(ms * 1_000_000L);
    }

    @Test
    void overlappingHoldsAddUpAndAHoldInProgressCountsUpToTheRead() {
        busy.began();               // worker 1 at t = 0
        advanceMillis(100);
        busy.began();               // worker 2 at t = 100 ms
        advanceMillis(50);
        assertThat(busy.seconds()).isCloseTo(0.150 + 0.050, within(1e-9));
        busy.ended();               // worker 1 ends at 150 ms (150 ms held)
        advanceMillis(250);
        assertThat(busy.seconds()).as("worker 2 still holding at 400 ms").isCloseTo(0.150 + 0.300, within(1e-9));
        busy.ended();               // worker 2 ends at 400 ms (300 ms held)
        advanceMillis(1_000);
        assertThat(busy.seconds()).as("nothing held: the counter stands still").isCloseTo(0.450, within(1e-9));
    }

    @Test
    void theCounterNeverFallsWhenTheLaterStarterEndsFirst() {
        busy.began();
        advanceMillis(10);
        busy.began();
        advanceMillis(10);
        double before = busy.seconds();
        busy.ended();               // either worker may end first: the total is the same
        assertThat(busy.seconds()).isCloseTo(before, within(1e-9));
        advanceMillis(10);
        assertThat(busy.seconds()).isCloseTo(before + 0.010, within(1e-9));
    }
}
