package io.schedlab.engine.knobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.builtins.BuiltIns;
import io.schedlab.engine.costs.CostModel;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.spec.SpecNormalizer;
import io.schedlab.engine.workloads.WorkloadDescriptor;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class KnobRegistryTest {

    private final Registry registry = BuiltIns.registry();
    private final KnobRegistry knobs = KnobRegistry.of(registry);

    @Test
    void everyUnverifiedCostParameterIsAKnobWithItsDeclaredDefault() {
        for (ParameterSpec p : CostModel.parameters()) {
            boolean unverified = p.source().toLowerCase(Locale.ROOT).contains("unverified");
            assertThat(knobs.byName("costs." + p.name()).isPresent()).as(p.name()).isEqualTo(unverified);
            knobs.byName("costs." + p.name()).ifPresent(k -> {
                assertThat(k.defaultValue()).isEqualTo(((Number) p.defaultValue()).doubleValue());
                assertThat(k.source()).isEqualTo(p.source());
                assertThat(k.readers()).isNotEmpty().noneMatch(r -> r.equals("costs.CostModel"));
            });
        }
    }

    @Test
    void unverifiedWorkloadParametersAreKnobsReadByTheirWorkloadClass() {
        Knob tail = knobs.require("parallel-build.serialTailMs");
        assertThat(tail.where()).isEqualTo(Knob.Where.WORKLOAD);
        assertThat(tail.owner()).isEqualTo("parallel-build");
        assertThat(tail.readers()).containsExactly("workloads.ParallelBuildWorkload");
        assertThat(tail.integral()).isFalse();
        for (WorkloadDescriptor w : registry.workloads()) {
            for (ParameterSpec p : w.parameters()) {
                boolean unverified = p.source() != null && p.source().toLowerCase(Locale.ROOT).contains("unverified");
                assertThat(knobs.byName(w.type() + "." + p.name()).isPresent()).as(w.type() + "." + p.name())
                        .isEqualTo(unverified && p.defaultValue() instanceof Number);
            }
        }
    }

    @Test
    void theHostsNodeBandwidthIsAKnobWithTheNormalizersDefault() {
        Knob k = knobs.require(KnobRegistry.NODE_BANDWIDTH);
        assertThat(k.defaultValue()).isEqualTo(SpecNormalizer.DEFAULT_NODE_BANDWIDTH_MBPS);
        assertThat(k.where()).isEqualTo(Knob.Where.NODE_BANDWIDTH);
    }

    @Test
    void scalingStaysInsideTheBoundsAndRoundsWholeNumbers() {
        Knob ipi = knobs.require("costs.ipiLatencyNanos");
        assertThat(ipi.integral()).isTrue();
        assertThat(ipi.scaled(0.5)).isEqualTo(500);
        assertThat(ipi.scaled(2_000)).isEqualTo(1_000_000);
        Knob eventNs = knobs.require("memory-bandwidth.eventNs");
        assertThat(eventNs.scaled(0.333)).isEqualTo(33);
    }
}
