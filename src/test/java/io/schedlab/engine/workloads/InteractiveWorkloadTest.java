package io.schedlab.engine.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InteractiveWorkloadTest {

    private static InteractiveWorkload interactive(long wakeups) {
        return new InteractiveWorkload(1, DurationDistribution.exponential(5),
                DurationDistribution.lognormal(100, 0.5), wakeups);
    }

    @Test
    void idleCpuGivesZeroWakeUpLatency() {
        InteractiveWorkload w = interactive(200);
        FakeGuest guest = new FakeGuest(1, 3);
        guest.run(w, Long.MAX_VALUE);
        assertThat(w.isComplete()).isTrue();
        assertThat(w.wakeups()).isEqualTo(200);
        assertThat(w.latencyNanosAt(100)).isZero();
    }

    @Test
    void aCpuHogDelaysWakeUps() {
        InteractiveWorkload w = interactive(200);
        FakeGuest guest = new FakeGuest(1, 3);
        // A thread that holds the only CPU for 10 ms at a time, then yields it for a moment.
        guest.spawn(new GuestThread() {
            private boolean sleepNext;

            @Override
            public Phase next(long now) {
                sleepNext = !sleepNext;
                return sleepNext ? new Phase.Compute(10_000_000, false) : new Phase.Sleep(1);
            }
        });
        guest.run(w, 10_000_000_000L);
        assertThat(w.wakeups()).isGreaterThan(50);
        assertThat(w.latencyNanosAt(50)).isGreaterThan(1_000_000);
        assertThat(w.latencyNanosAt(100)).isLessThanOrEqualTo(10_100_000);
        WorkloadReport r = w.report(10_000_000_000L);
        assertThat(r.unit()).isEqualTo("us");
        assertThat(r.value()).isEqualTo(r.details().get("p99Us")).isGreaterThan(1000);
    }
}
