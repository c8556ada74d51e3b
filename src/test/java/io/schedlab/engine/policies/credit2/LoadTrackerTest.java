package io.schedlab.engine.policies.credit2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.policies.xen.XenVersion;
import org.junit.jupiter.api.Test;

class LoadTrackerTest {
    /** 2^30 ns, sampled in 2^10 ns units: 2^20 units. */
    private static final long WINDOW_NS = 1L << 30;
    private static final long WINDOW_UNITS = 1L << 20;
    private final LoadTracker tracker = new LoadTracker(30, 10);

    @Test
    void halfAWindowMovesHalfWay() {
        assertThat(tracker.average(0.0, 1.0, WINDOW_UNITS / 2)).isCloseTo(0.5, within(1e-12));
        assertThat(tracker.average(2.0, 0.0, WINDOW_UNITS / 4)).isCloseTo(1.5, within(1e-12));
    }

    @Test
    void aWholeWindowReplacesTheAverage() {
        assertThat(tracker.average(0.3, 2.0, WINDOW_UNITS)).isEqualTo(2.0);
        assertThat(tracker.average(0.3, 2.0, 0)).isEqualTo(0.3);
    }

    @Test
    void runqueueLoadAppliesTheChangeAfterAveraging() {
        Credit2Runqueue rq = new Credit2Runqueue(0);
        rq.load = 2;
        tracker.updateRunq(rq, +1, WINDOW_NS / 2);
        assertThat(rq.avgload).isCloseTo(1.0, within(1e-12)); // half-way from 0 to the old load 2
        assertThat(rq.load).isEqualTo(3);
        tracker.updateRunq(rq, 0, WINDOW_NS / 2 + WINDOW_NS);
        assertThat(rq.avgload).isEqualTo(3.0);
    }

    @Test
    void timeIsSampledInGranularityUnits() {
        Credit2Runqueue rq = new Credit2Runqueue(0);
        rq.load = 1;
        // 1000 ns later is still the same 1024 ns unit: nothing to average yet (now >>= LOADAVG_GRANULARITY_SHIFT)
        tracker.updateRunq(rq, 0, 1_000);
        assertThat(rq.avgload).isZero();
        tracker.updateRunq(rq, 0, 1_024 * 3);
        assertThat(rq.avgload).isCloseTo(3.0 / WINDOW_UNITS, within(1e-15));
    }

    @Test
    void theWindowIsAVersionFact() {
        // xen 4.6 sched_credit2.c: opt_load_window_shift 18 units of 2^10 ns; 4.8+: LOADAVG_WINDOW_SHIFT 30 ns
        assertThat(XenVersion.parse("4.6").loadWindowShift()).isEqualTo(28);
        assertThat(XenVersion.parse("4.7").loadWindowShift()).isEqualTo(28);
        assertThat(XenVersion.parse("4.8").loadWindowShift()).isEqualTo(30);
        assertThat(XenVersion.parse("latest").loadWindowShift()).isEqualTo(30);
        assertThat(Credit2Params.defaults("4.6").effectiveLoadWindowShift()).isEqualTo(28);
        assertThat(Credit2Params.defaults("4.14").effectiveLoadWindowShift()).isEqualTo(30);
        LoadTracker old = new LoadTracker(28, 10);
        // a quarter of 4.6's window (2^26 ns) moves the average a quarter of the way
        assertThat(old.average(0.0, 1.0, (1L << 26) >> 10)).isCloseTo(0.25, within(1e-12));
    }
}
