package io.schedlab.engine.knobs;

import static io.schedlab.engine.TestSpecs.host;
import static io.schedlab.engine.TestSpecs.spec;
import static io.schedlab.engine.TestSpecs.vm;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.builtins.BuiltIns;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.NumaNodeSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KnobSetTest {

    private final KnobRegistry knobs = KnobRegistry.of(BuiltIns.registry());

    private static ExperimentSpec build(Map<String, Object> buildParams) {
        return spec(host(2, 2, 1), "credit", 5.0, List.of(vm("build", 2, List.of(0, 1), "parallel-build",
                buildParams)), List.of());
    }

    @Test
    void theDefaultSetLeavesTheExperimentAsItIs() {
        ExperimentSpec raw = build(Map.of("jobs", 10));
        assertThat(KnobSet.DEFAULTS.apply(raw)).isSameAs(raw);
        assertThat(KnobSet.DEFAULTS.changes(raw)).isFalse();
    }

    @Test
    void aCostKnobFillsTheCostsTheExperimentLeavesOut() {
        Knob ipi = knobs.require("costs.ipiLatencyNanos");
        ExperimentSpec applied = KnobSet.DEFAULTS.with(ipi, ipi.scaled(2)).apply(build(Map.of("jobs", 10)));
        assertThat(((Number) applied.costs().get("ipiLatencyNanos")).longValue()).isEqualTo(2_000L);
        assertThat(applied.costs()).hasSize(1);
    }

    @Test
    void aValueTheExperimentGivesItselfWins() {
        Knob ipi = knobs.require("costs.ipiLatencyNanos");
        ExperimentSpec given = build(Map.of("jobs", 10));
        given = new ExperimentSpec(given.name(), given.labels(), given.seed(), given.durationSeconds(),
                given.stopWhen(), given.host(), given.scheduler(), Map.of("ipiLatencyNanos", 1_500), given.vms(),
                given.timeline(), given.trace());
        KnobSet doubled = KnobSet.DEFAULTS.with(ipi, 2_000);
        assertThat(doubled.changes(given)).isFalse();
        assertThat(doubled.apply(given)).isSameAs(given);
    }

    @Test
    void aWorkloadKnobReachesOnlyWorkloadsOfItsTypeAndOnlyParametersLeftOut() {
        Knob tail = knobs.require("parallel-build.serialTailMs");
        Knob inside = knobs.require("spinlock.insideUs");
        KnobSet set = KnobSet.DEFAULTS.with(tail, 12_000).with(inside, 10);
        ExperimentSpec applied = set.apply(build(Map.of("jobs", 10)));
        Map<String, Object> params = applied.vms().get(0).workload().params();
        assertThat(((Number) params.get("serialTailMs")).doubleValue()).isEqualTo(12_000.0);
        assertThat(params).containsEntry("jobs", 10).doesNotContainKey("insideUs");
        assertThat(KnobSet.DEFAULTS.with(tail, 12_000).changes(build(Map.of("serialTailMs", 1.0)))).isFalse();
        assertThat(KnobSet.DEFAULTS.with(inside, 10).changes(build(Map.of()))).isFalse();
    }

    @Test
    void theNodeBandwidthKnobMakesTheNormalizersNodesOrFillsGivenOnes() {
        Knob bw = knobs.require(KnobRegistry.NODE_BANDWIDTH);
        KnobSet set = KnobSet.DEFAULTS.with(bw, 5_000);
        List<NumaNodeSpec> made = set.apply(build(Map.of())).host().numaNodes();
        assertThat(made).extracting(NumaNodeSpec::sockets).containsExactly(List.of(0), List.of(1));
        assertThat(made).extracting(NumaNodeSpec::bandwidthMBps).containsExactly(5_000.0, 5_000.0);
        ExperimentSpec own = build(Map.of());
        HostSpec h = own.host();
        own = new ExperimentSpec(own.name(), own.labels(), own.seed(), own.durationSeconds(), own.stopWhen(),
                new HostSpec(h.sockets(), h.coresPerSocket(), h.threadsPerCore(), List.of(
                        new NumaNodeSpec(List.of(0), null, 6_400.0), new NumaNodeSpec(List.of(1), null, null)),
                        null, null, null, null, null, null), own.scheduler(), own.costs(), own.vms(), own.timeline(),
                own.trace());
        assertThat(set.apply(own).host().numaNodes()).extracting(NumaNodeSpec::bandwidthMBps)
                .containsExactly(6_400.0, 5_000.0);
    }
}
