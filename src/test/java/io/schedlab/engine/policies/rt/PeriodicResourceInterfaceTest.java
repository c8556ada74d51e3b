package io.schedlab.engine.policies.rt;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The periodic resource model's supply bound and the least interface (Shin and Lee, RTSS 2003). */
class PeriodicResourceInterfaceTest {

    @Test
    void supplyStartsAfterTheWorstBlackoutOfTwiceTheGap() {
        // Γ(10, 4): blackout 2·(10-4) = 12, then 4 units, 6 without, 4 more
        assertThat(PeriodicResourceInterface.supplyBound(10, 4, 12)).isZero();
        assertThat(PeriodicResourceInterface.supplyBound(10, 4, 14)).isEqualTo(2);
        assertThat(PeriodicResourceInterface.supplyBound(10, 4, 16)).isEqualTo(4);
        assertThat(PeriodicResourceInterface.supplyBound(10, 4, 22)).isEqualTo(4);
        assertThat(PeriodicResourceInterface.supplyBound(10, 4, 26)).isEqualTo(8);
    }

    @Test
    void serverAsLongAsTheTaskNeedsHalfThePeriodPlusHalfTheWork() {
        // Π = T: sbf(T) = 2Θ - T must reach C, so Θ = (T + C) / 2
        PeriodicResourceInterface i = PeriodicResourceInterface.minimal(2_000, 10_000, 10_000);
        assertThat(i.budgetUs()).isEqualTo(6_000);
        assertThat(PeriodicResourceInterface.covers(2_000, 10_000, 10_000, 5_999)).isFalse();
    }

    @Test
    void aShorterServerPeriodNeedsLessBandwidth() {
        PeriodicResourceInterface whole = PeriodicResourceInterface.minimal(2_000, 10_000, 10_000);
        PeriodicResourceInterface half = PeriodicResourceInterface.minimal(2_000, 10_000, 5_000);
        assertThat(half.bandwidth()).isLessThan(whole.bandwidth()).isGreaterThan(0.2);
    }
}
