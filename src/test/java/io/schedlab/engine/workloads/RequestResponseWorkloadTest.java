package io.schedlab.engine.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RequestResponseWorkloadTest {
    private static final long US = 1_000;

    private static RequestResponseWorkload server(int connections, long roundTripUs, double serviceUs,
            long transactions, double linkMbps) {
        return new RequestResponseWorkload(connections, roundTripUs * US, DurationDistribution.lognormal(serviceUs, 0),
                1500, transactions, 64, linkMbps);
    }

    @Test
    void oneConnectionCompletesOneTransactionPerRoundTripPlusService() {
        // 100 us round trip + 20 us service: 1000 transactions take 1000 x 120 us on an idle CPU.
        RequestResponseWorkload w = server(1, 100, 20, 1000, 0);
        FakeGuest guest = new FakeGuest(1, 5);
        guest.run(w, Long.MAX_VALUE);
        assertThat(w.isComplete()).isTrue();
        assertThat(w.transactions()).isEqualTo(1000);
        WorkloadReport r = w.report(0);
        assertThat(r.completionSeconds()).isCloseTo(0.120, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(r.unit()).isEqualTo("Mbit/s");
        // 1000 x 1500 bytes x 8 bits in 0.12 s = 100 Mbit/s
        assertThat(r.value()).isCloseTo(100.0, org.assertj.core.data.Offset.offset(0.01));
        assertThat(w.wakeLatencyNanosAt(100)).isZero();
    }

    @Test
    void theLinkSerializesRequestsOfAllConnections() {
        // 50 connections would bring 50 / 120 us (5 Gbit/s of 1500-byte requests); a 1000 Mbit/s link delivers one
        // every 12 us, so the link sets the rate: 1000 Mbit/s.
        RequestResponseWorkload w = server(50, 100, 1, 200, 1000);
        FakeGuest guest = new FakeGuest(1, 5);
        guest.run(w, Long.MAX_VALUE);
        assertThat(w.transactions()).isEqualTo(50 * 200);
        assertThat(w.report(0).value()).isBetween(990.0, 1000.0);
    }

    @Test
    void aBusyCpuDelaysRequestsAndCutsThroughput() {
        RequestResponseWorkload alone = server(1, 100, 20, 0, 0);
        FakeGuest idle = new FakeGuest(1, 5);
        idle.run(alone, 100_000_000L);
        RequestResponseWorkload shared = server(1, 100, 20, 0, 0);
        FakeGuest busy = new FakeGuest(1, 5);
        // A thread that holds the only CPU for 1 ms at a time: each request waits for it.
        busy.spawn(new GuestThread() {
            private boolean sleepNext;

            @Override
            public Phase next(long now) {
                sleepNext = !sleepNext;
                return sleepNext ? new Phase.Compute(1_000_000, false) : new Phase.Sleep(1);
            }
        });
        busy.run(shared, 100_000_000L);
        assertThat(shared.wakeLatencyNanosAt(50)).isGreaterThan(500 * US);
        assertThat(shared.report(100_000_000L).value()).isLessThan(alone.report(100_000_000L).value() / 4);
    }
}
