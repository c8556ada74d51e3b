package io.schedlab.engine;

import static io.schedlab.engine.TestSpecs.host;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.VcpuAffinitySpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Generated clients send [] for every absent array: an empty affinity means "not set", like an absent one. */
class EmptyArraysMeanNotSetTest {
    private final Engine engine = Engine.standard();

    private static ExperimentSpec withAffinity(List<Integer> hard, List<Integer> soft, List<VcpuAffinitySpec> perVcpu,
            List<Integer> placement) {
        VmSpec vm = new VmSpec("a", 2, null, null, hard, soft, perVcpu, null, null, placement, null,
                new WorkloadSpec("cpu-loop", Map.of("workSeconds", 0.1)));
        return new ExperimentSpec("t", Map.of(), 1L, 1.0, null, host(1, 2, 1), new SchedulerSpec("credit", null), null,
                List.of(vm), List.of(), null);
    }

    @Test
    void emptyAffinitiesAndPlacementNormalizeLikeAbsentOnes() {
        Validation absent = engine.validate(withAffinity(null, null, null, null), Limits.defaults());
        Validation empty = engine.validate(withAffinity(List.of(), List.of(), List.of(), List.of()), Limits.defaults());
        assertThat(empty.violations()).isEmpty();
        assertThat(empty.normalized().vms()).isEqualTo(absent.normalized().vms());
        assertThat(empty.normalized().vms().get(0).hardAffinity()).containsExactly(0, 1);
    }

    @Test
    void anEmptyPerVcpuOverrideInheritsTheVmsAffinity() {
        Validation v = engine.validate(withAffinity(List.of(1), null,
                List.of(new VcpuAffinitySpec(0, List.of(), List.of())), null), Limits.defaults());
        assertThat(v.violations()).isEmpty();
        VcpuAffinitySpec override = v.normalized().vms().get(0).vcpuAffinity().get(0);
        assertThat(override.hard()).containsExactly(1);
        assertThat(override.soft()).isEmpty();
    }
}
