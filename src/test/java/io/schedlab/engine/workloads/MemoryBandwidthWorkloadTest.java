package io.schedlab.engine.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.workloads.MemoryBandwidthWorkload.Settings;
import io.schedlab.engine.workloads.MemoryHierarchy.Level;
import org.junit.jupiter.api.Test;

class MemoryBandwidthWorkloadTest {
    private static final double MIB = 1024.0 * 1024;
    /** FakeGuest's host: L1 32 KiB, L2 256 KiB, LLC 8 MiB; L1 44,700 MiB/s, L2 20,000, LLC 12,000. */
    private static final MemoryHierarchy HOST = new FakeGuest(1, 1).memory;

    private static MemoryBandwidthWorkload started(Settings s) {
        MemoryBandwidthWorkload w = new MemoryBandwidthWorkload(s);
        w.decide(HOST);
        return w;
    }

    @Test
    void sysbenchDefaultsMoveAOneKibBlockInL1AndPayTheEventLoop() {
        MemoryBandwidthWorkload w = new MemoryBandwidthWorkload(Settings.sysbench(1, 1, 100));
        FakeGuest guest = new FakeGuest(1, 1);
        guest.run(w, Long.MAX_VALUE);
        assertThat(w.level()).isEqualTo(Level.L1);
        double blockNanos = MemoryBandwidthWorkload.DEFAULT_EVENT_NANOS + 1024 / (HOST.l1MBps() * MIB) * 1e9;
        assertThat(w.report(guest.now()).value()).isCloseTo(1 / 1024.0 / (blockNanos / 1e9), within(60.0));
        // nothing streams from a node, and the vCPU keeps only its 1 KiB block hot
        assertThat(guest.memoryComputeNanos).isZero();
        assertThat(w.workingSetKb()).isEqualTo(1);
    }

    @Test
    void theBlockSizeAndScopePickTheCacheLevel() {
        assertThat(started(Settings.sysbench(1, 32, 0)).level()).isEqualTo(Level.L1);
        assertThat(started(Settings.sysbench(1, 64, 0)).level()).isEqualTo(Level.L2);
        assertThat(started(Settings.sysbench(4, 4096, 0)).level()).isEqualTo(Level.LLC); // one shared 4 MiB block
        MemoryBandwidthWorkload local = started(new Settings(4, 4096, 0, "local", "write", "seq", "sysbench", 5000,
                100, 10, 1000));
        assertThat(local.level()).isEqualTo(Level.DRAM); // 4 x 4 MiB > 8 MiB LLC
        assertThat(local.workingSetKb()).isZero(); // streaming reuses nothing
        MemoryBandwidthWorkload none = started(new Settings(1, 65536, 0, "global", "none", "seq", "sysbench", 5000,
                100, 10, 1000));
        assertThat(none.level()).isEqualTo(Level.L1); // --memory-oper=none touches no memory
    }

    @Test
    void randomAccessPaysARandomDrawPerInt() {
        MemoryBandwidthWorkload rnd = started(new Settings(1, 1, 0, "global", "write", "rnd", "sysbench", 5000, 100,
                10, 1000));
        assertThat(rnd.blockNanos()).isEqualTo(100.0 + 256 * 10);
    }

    @Test
    void streamModeStreamsEveryPhaseAtTheNominalRate() {
        MemoryBandwidthWorkload w = new MemoryBandwidthWorkload(Settings.stream(1, 1, 100, 5000));
        FakeGuest guest = new FakeGuest(1, 1);
        guest.run(w, Long.MAX_VALUE);
        WorkloadReport r = w.report(guest.now());
        assertThat(w.isComplete()).isTrue();
        assertThat(r.unit()).isEqualTo("MB/s");
        assertThat(r.value()).isCloseTo(5000, within(5.0));
        assertThat(r.completionSeconds()).isCloseTo(0.02, within(1e-4));
        assertThat(r.details().get("totalMiB")).isCloseTo(100, within(1e-9));
        assertThat(guest.memoryComputeNanos).isEqualTo(guest.computeNanosExecuted).isPositive();
    }

    @Test
    void throughputFollowsTheEnginesRateFactorWhenStreaming() {
        MemoryBandwidthWorkload full = new MemoryBandwidthWorkload(Settings.stream(1, 1, 0, 5000));
        MemoryBandwidthWorkload shared = new MemoryBandwidthWorkload(Settings.stream(1, 1, 0, 5000));
        long second = 1_000_000_000L;
        new FakeGuest(1, 1, 1.0, 1).run(full, second);
        new FakeGuest(1, 1, 0.4, 1).run(shared, second);
        assertThat(full.isFinite()).isFalse();
        assertThat(shared.report(second).value() / full.report(second).value()).isCloseTo(0.4, within(0.01));
    }

    @Test
    void threadsTimeShareFewerCpus() {
        MemoryBandwidthWorkload w = new MemoryBandwidthWorkload(Settings.stream(4, 1, 50, 5000));
        FakeGuest guest = new FakeGuest(2, 1);
        guest.run(w, Long.MAX_VALUE);
        WorkloadReport r = w.report(guest.now());
        assertThat(r.details().get("totalMiB")).isCloseTo(200, within(1e-9));
        // 4 threads on 2 CPUs: aggregate throughput of two streams.
        assertThat(r.value()).isCloseTo(10_000, within(100.0));
    }

    @Test
    void blocksArePackedIntoPhasesOfAboutPhaseUs() {
        MemoryBandwidthWorkload w = started(Settings.stream(1, 4, 0, 4000));
        // 4000 MiB/s: a 4 KiB block takes 976.56 ns; 1 ms holds 1024 of them.
        assertThat(w.blockNanos()).isCloseTo(976.5625, within(1e-9));
        assertThat(w.blocksPerPhase()).isEqualTo(1024);
    }
}
