package io.schedlab.engine.workloads;

import static io.schedlab.engine.workloads.EngineRuns.run;
import static io.schedlab.engine.workloads.EngineRuns.vmResult;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.Validation;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Guest memory striped over every NUMA node (Xen numa=off, Xen 22b984ae9a41): each stream takes 1/N of its bytes
 * from each node, the remote ones at the distance factor and through the links between nodes, where every stream
 * crossing them waits behind the others' demand (1 / (1 + others' demand / link bandwidth), at most the links'
 * bandwidth share).
 */
class StripedMemoryTest {
    /** 4 nodes x 2 cores, 10 GB/s per node, the engine's default SLIT (21 between nodes). */
    private static final int NODES = 4;
    private static final double REMOTE = 10.0 / 21;
    private static final double STREAM_MBPS = 5000;

    private static VmSpec streamer(String name, int pcpu, String placement) {
        return streamer(name, pcpu, pcpu / 2, placement);
    }

    private static VmSpec streamer(String name, int pcpu, int memoryNode, String placement) {
        return new VmSpec(name, 1, null, null, List.of(pcpu), null, null, 1024, memoryNode, List.of(pcpu), null,
                new WorkloadSpec("memory-bandwidth", Map.of("threads", 1, "mode", "stream", "streamMBps",
                        STREAM_MBPS)), null, null, null, placement);
    }

    private static ExperimentSpec spec(List<VmSpec> vms, double interconnectMBps, StopCondition stop) {
        return new ExperimentSpec("striped", null, 11L, 0.5, stop, EngineRuns.numaHost(NODES, 2, 10_000),
                new SchedulerSpec("static", null), Map.of("interconnectMBps", interconnectMBps), vms, null, null);
    }

    /** Mean MB/s of the streams when {@code count} VMs (one per pCPU) stream with the given placement. */
    private static double perStream(int count, String placement, double interconnectMBps) {
        List<VmSpec> vms = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            vms.add(streamer("vm" + i, i, placement));
        }
        return mean(vms, interconnectMBps);
    }

    /** Mean MB/s of the VMs' streams. */
    private static double mean(List<VmSpec> vms, double interconnectMBps) {
        ResultDocument doc = run(spec(vms, interconnectMBps, StopCondition.DURATION));
        double sum = 0;
        for (VmSpec v : vms) {
            sum += vmResult(doc, v.name()).headline().value();
        }
        return sum / vms.size();
    }

    /** Link factor of a stream of unloaded remote demand {@code own} when {@code offered} MB/s load the links. */
    private static double linkFactor(double offered, double own, double capacity) {
        return Math.min(1 / (1 + (offered - own) / capacity), capacity / offered);
    }

    @Test
    void aStripedStreamAloneRunsAtTheMeanTimePerByteOverItsNodes() {
        double local = perStream(1, "local", 0);
        double striped = perStream(1, VmSpec.MEMORY_STRIPED, 0);
        // 1/4 of the bytes local, 3/4 at 10/21 of the rate: rate = 4 / (1 + 3 x 2.1)
        double expected = NODES / (1 + (NODES - 1) / REMOTE);
        assertThat(striped / local).isCloseTo(expected, within(0.01));
    }

    @Test
    void stripedStreamsShareTheLinksButNodeLocalOnesDoNot() {
        double links = 2000;
        double free = perStream(8, VmSpec.MEMORY_STRIPED, 0);
        double limited = perStream(8, VmSpec.MEMORY_STRIPED, links);
        // 8 striped streams ask 8 x 5000 x 3/4 MB/s of the 4 x 2000 the links carry; each node sees 2 streams'
        // worth of demand = its 10 GB/s, so only the links slow them: each waits behind the other 7's demand.
        double remotePart = STREAM_MBPS * (NODES - 1) / NODES;
        double linkShare = linkFactor(8 * remotePart, remotePart, NODES * links);
        double freeRate = NODES / (1 + (NODES - 1) / REMOTE);
        double limitedRate = NODES / (1 + (NODES - 1) / (REMOTE * linkShare));
        assertThat(limited / free).isCloseTo(limitedRate / freeRate, within(0.01));
        // node-local streams never cross the links
        assertThat(perStream(8, "local", links)).isCloseTo(perStream(8, "local", 0), within(1e-9));
    }

    @Test
    void stripedStreamsQueueOnTheLinksBeforeTheLinksSaturate() {
        double links = 20_000;
        // 4 striped streams offer 15 GB/s to links of 80 GB/s: a fifth of their bandwidth
        double free = perStream(4, VmSpec.MEMORY_STRIPED, 0);
        double loaded = perStream(4, VmSpec.MEMORY_STRIPED, links);
        double remotePart = STREAM_MBPS * (NODES - 1) / NODES;
        double factor = linkFactor(4 * remotePart, remotePart, NODES * links);
        double freeRate = NODES / (1 + (NODES - 1) / REMOTE);
        double loadedRate = NODES / (1 + (NODES - 1) / (REMOTE * factor));
        assertThat(factor).isLessThan(0.9);
        assertThat(loaded / free).isCloseTo(loadedRate / freeRate, within(0.01));
        // a stream alone meets no queue
        assertThat(perStream(1, VmSpec.MEMORY_STRIPED, links)).isCloseTo(perStream(1, VmSpec.MEMORY_STRIPED, 0),
                within(1e-9));
    }

    @Test
    void nodeLocalMemoryReadFromAnotherNodeCrossesTheLinks() {
        double links = 2_500;
        // two VMs whose memory lies on the other one's node: each stream crosses the links, behind the other's
        List<VmSpec> crossed = List.of(streamer("vm0", 0, 1, "local"), streamer("vm1", 2, 0, "local"));
        double free = mean(crossed, 0);
        double loaded = mean(crossed, links);
        assertThat(loaded / free).isCloseTo(linkFactor(2 * STREAM_MBPS, STREAM_MBPS, NODES * links),
                within(0.01));
    }

    private static double buildSeconds(String placement) {
        VmSpec v = new VmSpec("guest", 1, null, null, List.of(0), null, null, 1024, 0, List.of(0), null,
                new WorkloadSpec("parallel-build", Map.of("jobs", 50, "jobMeanMs", 10.0, "jobCv", 0.0,
                        "ioMeanMs", 0.0, "serialTailMs", 0.0, "memoryShare", 0.5)), null, null, null, placement);
        ExperimentSpec s = new ExperimentSpec("build", null, 11L, 60.0, StopCondition.ALL_COMPLETE,
                EngineRuns.numaHost(NODES, 2, 10_000), new SchedulerSpec("static", null), null, List.of(v), null,
                null);
        return vmResult(run(s), "guest").headline().value();
    }

    @Test
    void aBuildsMemoryShareRunsAtTheStreamRateOfItsPlacement() {
        double local = buildSeconds("local");
        double striped = buildSeconds(VmSpec.MEMORY_STRIPED);
        double stripedRate = NODES / (1 + (NODES - 1) / REMOTE);
        // half of each job at full speed, half at the striped stream's rate
        assertThat(local).isCloseTo(0.5, within(0.01));
        assertThat(striped / local).isCloseTo(0.5 + 0.5 / stripedRate, within(0.02));
    }

    @Test
    void anUnknownMemoryPlacementIsRejectedAtItsPointer() {
        ExperimentSpec s = spec(List.of(streamer("vm0", 0, "spread")), 0, StopCondition.DURATION);
        Validation v = EngineRuns.ENGINE.validate(s, Limits.defaults());
        assertThat(v.violations()).anySatisfy(x -> assertThat(x.pointer()).isEqualTo("/vms/0/memoryPlacement"));
    }
}
