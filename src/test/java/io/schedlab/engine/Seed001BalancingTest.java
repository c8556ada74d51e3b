package io.schedlab.engine;

import static io.schedlab.engine.TestSpecs.cpuLoop;
import static io.schedlab.engine.TestSpecs.dom0;
import static io.schedlab.engine.TestSpecs.host;
import static io.schedlab.engine.TestSpecs.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.policies.SelfCheckAssumptions;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import io.schedlab.engine.run.RunControl;

/**
 * Seed 001 (E2) against every registered work-conserving policy (credit, credit2 once registered):
 * the two loops placed on one pCPU take 1.8-2.6x as long under {@code static} as under a balancing
 * scheduler, because the balancer moves one loop to the idle pCPU.
 */
class Seed001BalancingTest {
    private static final double WORK = 20.0;
    private final Engine engine = Engine.standard();

    private double slowestCompletion(String policy) {
        ExperimentSpec s = spec(host(1, 2, 1), policy, 600,
                List.of(dom0(2), cpuLoop("VM1", 1, WORK), cpuLoop("VM3", 1, WORK)), List.of());
        Validation v = engine.validate(s, Limits.defaults());
        assertThat(v.violations()).isEmpty();
        ResultDocument doc = engine.run(v.normalized(), Limits.defaults(), RunControl.NONE);
        return Math.max(Seconds.of(doc.vms().get(1).completionNanos()), Seconds.of(doc.vms().get(2).completionNanos()));
    }

    @TestFactory
    Stream<DynamicTest> balancingPoliciesRemoveTheImbalance() {
        double stat = slowestCompletion("static");
        return engine.registry().policies().stream()
                .filter(d -> !"static".equals(d.name()) && !"null".equals(d.name()))
                .filter(Seed001BalancingTest::workConserving)
                .map(d -> DynamicTest.dynamicTest(d.name(), () -> {
                    double balanced = slowestCompletion(d.name());
                    assertThat(stat / balanced).as("static / %s", d.name()).isBetween(1.8, 2.6);
                }));
    }

    private static boolean workConserving(PolicyDescriptor d) {
        Map<String, Object> defaults = new java.util.LinkedHashMap<>();
        d.parameters().forEach(p -> defaults.put(p.name(), p.defaultValue()));
        return SelfCheckAssumptions.of(d.factory().apply(new Params(defaults))).workConserving();
    }
}
