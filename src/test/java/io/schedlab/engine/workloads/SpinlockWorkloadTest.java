package io.schedlab.engine.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SpinlockWorkloadTest {

    private static final long SECOND = 1_000_000_000L;

    private static SpinlockWorkload fixed(int threads, double outsideUs, double insideUs, long records) {
        return new SpinlockWorkload(threads, DurationDistribution.lognormal(outsideUs, 0),
                DurationDistribution.lognormal(insideUs, 0), 1, records);
    }

    @Test
    void oneThreadRecordRateIsOneOverTheLoopTime() {
        SpinlockWorkload w = fixed(1, 50, 5, 0);
        new FakeGuest(1, 1).run(w, SECOND);
        assertThat(w.report(SECOND).value()).isCloseTo(1e6 / 55, within(2.0));
    }

    @Test
    void theLockSerialisesCriticalSections() {
        // Critical section dominates: 8 threads on 8 CPUs cannot beat one record per 50 us.
        SpinlockWorkload w = fixed(8, 5, 50, 0);
        new FakeGuest(8, 1).run(w, SECOND);
        assertThat(w.report(SECOND).value()).isCloseTo(20_000, within(50.0));
    }

    @Test
    void shortCriticalSectionsScaleWithThreads() {
        SpinlockWorkload one = fixed(1, 50, 1, 0);
        SpinlockWorkload four = fixed(4, 50, 1, 0);
        new FakeGuest(4, 1).run(one, SECOND);
        new FakeGuest(4, 1).run(four, SECOND);
        assertThat(four.report(SECOND).value() / one.report(SECOND).value()).isGreaterThan(3.8);
    }

    @Test
    void zeroThreadsMeansOnePerVcpuAndFiniteRecordsComplete() {
        SpinlockWorkload w = new SpinlockWorkload(0, DurationDistribution.lognormal(20, 0.5),
                DurationDistribution.lognormal(2, 0.5), 3, 100);
        FakeGuest guest = new FakeGuest(6, 3);
        guest.run(w, Long.MAX_VALUE);
        assertThat(w.isComplete()).isTrue();
        assertThat(w.totalRecords()).isEqualTo(600);
        assertThat(w.report(guest.now()).details()).containsEntry("threads", 6.0);
    }
}
