package io.schedlab.engine.policies.credit2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LoadTrackerTest {
    private static final long WINDOW = 1L << 30;
    private final LoadTracker tracker = new LoadTracker(30);

    @Test
    void halfAWindowMovesHalfWay() {
        assertThat(tracker.average(0.0, 1.0, WINDOW / 2)).isCloseTo(0.5, within(1e-12));
        assertThat(tracker.average(2.0, 0.0, WINDOW / 4)).isCloseTo(1.5, within(1e-12));
    }

    @Test
    void aWholeWindowReplacesTheAverage() {
        assertThat(tracker.average(0.3, 2.0, WINDOW)).isEqualTo(2.0);
        assertThat(tracker.average(0.3, 2.0, 0)).isEqualTo(0.3);
    }

    @Test
    void runqueueLoadAppliesTheChangeAfterAveraging() {
        Credit2Runqueue rq = new Credit2Runqueue(0);
        rq.load = 2;
        tracker.updateRunq(rq, +1, WINDOW / 2);
        assertThat(rq.avgload).isCloseTo(1.0, within(1e-12)); // half-way from 0 to the old load 2
        assertThat(rq.load).isEqualTo(3);
        tracker.updateRunq(rq, 0, WINDOW / 2 + WINDOW);
        assertThat(rq.avgload).isEqualTo(3.0);
    }
}
