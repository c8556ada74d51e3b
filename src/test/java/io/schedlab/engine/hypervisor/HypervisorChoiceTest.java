package io.schedlab.engine.hypervisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.TestSpecs;
import io.schedlab.engine.Validation;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;

/** scheduler.hypervisor: defaults to the policy's own, and a policy on the wrong hypervisor is a violation. */
class HypervisorChoiceTest {
    private final Engine engine = Engine.standard();

    static ExperimentSpec on(String policy, String hypervisor) {
        ExperimentSpec s = TestSpecs.spec(TestSpecs.host(1, 2, 1), policy, 0.1,
                List.of(TestSpecs.cpuLoop("a", 0, 0.05)), null);
        return new ExperimentSpec(s.name(), s.labels(), s.seed(), s.durationSeconds(), s.stopWhen(), s.host(),
                new SchedulerSpec(policy, null, hypervisor), s.costs(), s.vms(), s.timeline(), s.trace());
    }

    @Test
    void absentHypervisorIsThePolicysOwn() {
        Validation v = engine.validate(on("credit", null), Limits.defaults());
        assertThat(v.violations()).isEmpty();
        assertThat(v.normalized().scheduler().hypervisor()).isEqualTo("xen");
    }

    @Test
    void theNamedHypervisorIsKeptInAnyCase() {
        Validation v = engine.validate(on("credit2", "XEN"), Limits.defaults());
        assertThat(v.violations()).isEmpty();
        assertThat(v.normalized().scheduler().hypervisor()).isEqualTo("xen");
    }

    @Test
    void aXenPolicyOnKvmIsRejectedNamingTheField() {
        List<Violation> out = engine.validate(on("credit", "kvm"), Limits.defaults()).violations();
        assertThat(out).singleElement().satisfies(x -> {
            assertThat(x.pointer()).isEqualTo("/scheduler/hypervisor");
            assertThat(x.message()).contains("credit").contains("xen");
        });
    }

    @Test
    void anUnknownHypervisorIsRejectedWithTheKnownOnes() {
        List<Violation> out = engine.validate(on("credit", "vmware"), Limits.defaults()).violations();
        assertThat(out).singleElement().satisfies(x -> {
            assertThat(x.pointer()).isEqualTo("/scheduler/hypervisor");
            assertThat(x.message()).contains("vmware").contains("xen").contains("kvm");
        });
    }
}
