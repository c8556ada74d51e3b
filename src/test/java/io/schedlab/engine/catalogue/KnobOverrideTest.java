package io.schedlab.engine.catalogue;

import static io.schedlab.engine.TestSpecs.host;
import static io.schedlab.engine.TestSpecs.spec;
import static io.schedlab.engine.TestSpecs.vm;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.knobs.Knob;
import io.schedlab.engine.knobs.KnobRegistry;
import io.schedlab.engine.knobs.KnobSet;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A knob set given to a scenario run reaches the mechanism that reads the knob, and nothing else. */
class KnobOverrideTest {

    private final Engine engine = Engine.standard();
    private final KnobRegistry knobs = KnobRegistry.of(engine.registry());

    private JsonNode run(KnobSet set, ExperimentSpec raw) {
        ObjectNode doc = (ObjectNode) new EngineExecutor(engine, Limits.defaults(), set).run(raw);
        ((ObjectNode) doc.get("summary")).remove("wallNanos");
        return doc;
    }

    /** Four STREAM threads on one socket demand 4 x streamMBps, twice the node's default bandwidth. */
    private static ExperimentSpec streams() {
        return spec(host(1, 4, 1), "credit", 2.0, List.of(vm("stream", 4, List.of(0, 1, 2, 3), "memory-bandwidth",
                Map.of("threads", 4, "mode", "stream"))), List.of());
    }

    private static double rate(JsonNode doc) {
        return doc.path("vms").get(0).path("headline").path("value").asDouble();
    }

    @Test
    void halvingTheNodeBandwidthHalvesTheRateOfStreamsThatSaturateIt() {
        Knob bw = knobs.require(KnobRegistry.NODE_BANDWIDTH);
        double base = rate(run(KnobSet.DEFAULTS, streams()));
        double halved = rate(run(KnobSet.DEFAULTS.with(bw, bw.scaled(0.5)), streams()));
        assertThat(halved / base).isCloseTo(0.5, org.assertj.core.data.Offset.offset(0.05));
    }

    @Test
    void theNodeSharesOutItsBandwidthByTheCostModelsDemandPerStreamer() {
        // sim.Progress: share = node bandwidth / (streamers x costs.streamBandwidthMBps), at most 1; the workload's
        // own streamMBps is the rate that share scales
        Knob demand = knobs.require("costs.streamBandwidthMBps");
        Knob stream = knobs.require("memory-bandwidth.streamMBps");
        double base = rate(run(KnobSet.DEFAULTS, streams()));
        double moreDemand = rate(run(KnobSet.DEFAULTS.with(demand, demand.scaled(2)), streams()));
        double fasterThreads = rate(run(KnobSet.DEFAULTS.with(stream, stream.scaled(2)), streams()));
        assertThat(moreDemand / base).isCloseTo(0.5, org.assertj.core.data.Offset.offset(0.02));
        assertThat(fasterThreads / base).isCloseTo(2.0, org.assertj.core.data.Offset.offset(0.04));
    }

    @Test
    void aLongerSerialTailLengthensABuild() {
        Knob tail = knobs.require("parallel-build.serialTailMs");
        ExperimentSpec build = spec(host(1, 2, 1), "credit", 60.0, List.of(vm("build", 2, List.of(0, 1),
                "parallel-build", Map.of("jobs", 20, "jobMeanMs", 50.0))), List.of());
        double base = run(KnobSet.DEFAULTS, build).path("vms").get(0).path("completionNanos").asDouble();
        double longer = run(KnobSet.DEFAULTS.with(tail, tail.scaled(2)), build).path("vms").get(0)
                .path("completionNanos").asDouble();
        assertThat(longer - base).isCloseTo(tail.defaultValue() * 1e6, org.assertj.core.data.Percentage.withPercentage(5));
    }

    @Test
    void knobsOfMechanismsTheRunDoesNotUseLeaveItByteIdentical() {
        KnobSet unused = KnobSet.DEFAULTS.with(knobs.require("spinlock.insideUs"), 10)
                .with(knobs.require("parallel-build.serialTailMs"), 12_000)
                .with(knobs.require("costs.rendezvousNanos"), 2_000);
        assertThat(run(unused, streams())).isEqualTo(run(KnobSet.DEFAULTS, streams()));
    }
}
