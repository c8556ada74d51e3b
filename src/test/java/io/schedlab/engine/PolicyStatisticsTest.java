package io.schedlab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.StatisticSpec;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VcpuResult;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.VmSpec;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import io.schedlab.engine.run.RunControl;

/**
 * policyStatistics: every registered policy reports exactly the statistics its descriptor declares (run level
 * all of them, per vCPU the per-vCPU ones), and a per-vCPU statistic's run value is the sum over the vCPUs.
 */
class PolicyStatisticsTest {
    private static final Engine ENGINE = Engine.standard();

    static Stream<String> policies() {
        return ENGINE.registry().policies().stream().map(PolicyDescriptor::name);
    }

    /** Loops started on pCPU 0 of a 4-core host (six vCPUs where the policy allows more vCPUs than pCPUs). */
    private static ResultDocument run(String policy) {
        int n = policy.equals("null") ? 4 : 6;
        VmSpec vm = TestSpecs.vm("guest", n, java.util.Collections.nCopies(n, 0), "cpu-loop", Map.of("threads", n,
                "workSeconds", 0.2));
        ExperimentSpec spec = TestSpecs.spec(TestSpecs.host(1, 4, 1), policy, 2.0, List.of(vm), List.of());
        Validation v = ENGINE.validate(spec, Limits.defaults());
        assertThat(v.violations()).isEmpty();
        return ENGINE.run(v.normalized(), Limits.defaults(), RunControl.NONE);
    }

    @ParameterizedTest
    @MethodSource("policies")
    void reportedStatisticsAreTheDeclaredOnes(String policy) {
        PolicyDescriptor d = ENGINE.registry().policy(policy).orElseThrow();
        ResultDocument doc = run(policy);
        List<String> declared = d.statistics().stream().map(StatisticSpec::name).sorted().toList();
        List<String> perVcpu = d.statistics().stream().filter(StatisticSpec::perVcpu).map(StatisticSpec::name)
                .sorted().toList();
        assertThat(doc.policyStatistics().keySet()).containsExactlyElementsOf(declared);
        for (VmResult vm : doc.vms()) {
            for (VcpuResult vc : vm.vcpus()) {
                assertThat(vc.policyStatistics().keySet()).containsExactlyElementsOf(perVcpu);
            }
        }
        for (String name : perVcpu) {
            long sum = doc.vms().stream().flatMap(vm -> vm.vcpus().stream())
                    .mapToLong(vc -> vc.policyStatistics().get(name)).sum();
            assertThat(doc.policyStatistics().get(name)).as(name).isEqualTo(sum);
        }
    }

    @ParameterizedTest
    @MethodSource("xenProportionalShare")
    void creditStealsAndCredit2TicklesAreCounted(String policy, String statistic) {
        assertThat(run(policy).policyStatistics().get(statistic)).isPositive();
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> xenProportionalShare() {
        return Stream.of(org.junit.jupiter.params.provider.Arguments.of("credit", "steals"),
                org.junit.jupiter.params.provider.Arguments.of("credit2", "tickles"),
                org.junit.jupiter.params.provider.Arguments.of("credit2", "creditResets"));
    }
}
