package io.schedlab.engine.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class MemoryBandwidthWorkloadTest {

    @Test
    void soloThreadStreamsAtTheNominalRate() {
        MemoryBandwidthWorkload w = new MemoryBandwidthWorkload(1, 1, 100, 5000, 1000);
        FakeGuest guest = new FakeGuest(1, 1);
        guest.run(w, Long.MAX_VALUE);
        WorkloadReport r = w.report(guest.now());
        assertThat(w.isComplete()).isTrue();
        assertThat(r.unit()).isEqualTo("MB/s");
        assertThat(r.value()).isCloseTo(5000, within(5.0));
        assertThat(r.completionSeconds()).isCloseTo(0.02, within(1e-4));
        assertThat(r.details().get("totalMiB")).isCloseTo(100, within(1e-9));
    }

    @Test
    void everyPhaseIsAMemoryStream() {
        MemoryBandwidthWorkload w = new MemoryBandwidthWorkload(2, 4, 10, 5000, 1000);
        FakeGuest guest = new FakeGuest(2, 1);
        guest.run(w, Long.MAX_VALUE);
        assertThat(guest.memoryComputeNanos).isEqualTo(guest.computeNanosExecuted).isPositive();
    }

    @Test
    void throughputFollowsTheEnginesRateFactor() {
        MemoryBandwidthWorkload full = new MemoryBandwidthWorkload(1, 1, 0, 5000, 1000);
        MemoryBandwidthWorkload shared = new MemoryBandwidthWorkload(1, 1, 0, 5000, 1000);
        long second = 1_000_000_000L;
        new FakeGuest(1, 1, 1.0, 1).run(full, second);
        new FakeGuest(1, 1, 0.4, 1).run(shared, second);
        double a = full.report(second).value();
        double b = shared.report(second).value();
        assertThat(full.isFinite()).isFalse();
        assertThat(b / a).isCloseTo(0.4, within(0.01));
    }

    @Test
    void threadsTimeShareFewerCpus() {
        MemoryBandwidthWorkload w = new MemoryBandwidthWorkload(4, 1, 50, 5000, 1000);
        FakeGuest guest = new FakeGuest(2, 1);
        guest.run(w, Long.MAX_VALUE);
        WorkloadReport r = w.report(guest.now());
        assertThat(r.details().get("totalMiB")).isCloseTo(200, within(1e-9));
        // 4 threads on 2 CPUs: aggregate throughput of two streams.
        assertThat(r.value()).isCloseTo(10_000, within(100.0));
    }

    @Test
    void blocksArePackedIntoPhasesOfAboutPhaseUs() {
        MemoryBandwidthWorkload w = new MemoryBandwidthWorkload(1, 4, 0, 4000, 1000);
        // 4000 MiB/s x 1 ms = 4096 KiB = 1024 blocks of 4 KiB, ~1 ms of work.
        assertThat(w.blocksPerPhase()).isEqualTo(1024);
        assertThat(w.workNanosFor(1024 * 4)).isEqualTo(1_000_000);
    }
}
