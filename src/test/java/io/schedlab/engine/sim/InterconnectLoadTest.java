package io.schedlab.engine.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The links' rate factor: queueing behind the other streams' demand, never more than the links' bandwidth. */
class InterconnectLoadTest {

    @Test
    void aStreamAloneMeetsNoQueue() {
        assertThat(InterconnectLoad.rateFactor(4_000, 4_000, 10_000)).isEqualTo(1.0);
    }

    @Test
    void theOthersDemandStretchesTheRemoteLatencyBelowSaturation() {
        // 3 other streams of 2 GB/s on links of 24 GB/s: a quarter of their bandwidth, latency x 1.25
        assertThat(InterconnectLoad.rateFactor(8_000, 2_000, 24_000)).isCloseTo(1 / 1.25, within(1e-12));
        // more load, more wait
        assertThat(InterconnectLoad.rateFactor(16_000, 2_000, 24_000))
                .isLessThan(InterconnectLoad.rateFactor(8_000, 2_000, 24_000));
    }

    @Test
    void theLinksNeverCarryMoreThanTheirBandwidth() {
        // two streams of 20 GB/s on links of 10 GB/s: queueing alone would leave each a third of 20 GB/s
        double factor = InterconnectLoad.rateFactor(40_000, 20_000, 10_000);
        assertThat(2 * 20_000 * factor).isCloseTo(10_000, within(1e-6));
    }

    @Test
    void noLinkBandwidthMeansNoLimit() {
        InterconnectLoad links = new InterconnectLoad(8, 0, 5_000);
        links.update(23, 4);
        assertThat(links.modelled()).isFalse();
        assertThat(links.stripedFactor()).isEqualTo(1.0);
        assertThat(links.remoteFactor()).isEqualTo(1.0);
    }

    @Test
    void stripedStreamsLoadTheLinksWithTheirRemotePart() {
        // 8 nodes: a striped stream of 8 GB/s puts 7 GB/s on links of 8 x 7 GB/s
        InterconnectLoad links = new InterconnectLoad(8, 7_000, 8_000);
        links.update(3, 0);
        assertThat(links.stripedFactor()).isCloseTo(1 / (1 + 2 * 7_000 / 56_000.0), within(1e-12));
        // a remote stream of node-local memory adds all of its 8 GB/s
        links.update(3, 1);
        assertThat(links.stripedFactor()).isCloseTo(1 / (1 + (2 * 7_000 + 8_000) / 56_000.0), within(1e-12));
        assertThat(links.remoteFactor()).isCloseTo(1 / (1 + 3 * 7_000 / 56_000.0), within(1e-12));
    }
}
