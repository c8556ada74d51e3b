package io.schedlab.engine.spec;

import io.schedlab.engine.builtins.BuiltIns;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.TestSpecs;
import io.schedlab.engine.Validation;
import io.schedlab.engine.policies.reference.StaticPolicy;
import io.schedlab.engine.params.InvalidParameterException;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.Registry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Per-VM and per-vCPU scheduling parameters are checked generically against the policy descriptor:
 * unknown names, types, bounds and the descriptor's cross-field rule, each with a JSON pointer; defaults
 * are filled (a vCPU inherits the VM-level value of the same name); set-sched-params is checked against
 * the values it meets at its time.
 */
class SchedParamsValidationTest {
    private static final ParameterSpec PERIOD = ParameterSpec.integer("periodUs", 10_000, 10, 1_000_000, "us",
            "period", "test");
    private static final ParameterSpec BUDGET = ParameterSpec.integer("budgetUs", 4_000, 10, 1_000_000, "us",
            "budget", "test");
    private static final PolicyDescriptor POLICY = new PolicyDescriptor("static-params", "test policy",
            StaticPolicy.descriptor().parameters(), StaticPolicy::new)
            .withSchedParams(List.of(PERIOD, BUDGET), List.of(PERIOD, BUDGET), p -> {
                if (p.getLong("budgetUs") > p.getLong("periodUs")) {
                    throw new InvalidParameterException("budgetUs", "must be <= periodUs (" + p.getLong("periodUs")
                            + ")");
                }
            });
    private static final Engine ENGINE = new Engine(new Registry().register(POLICY)
            .register(BuiltIns.registry().workload("cpu-loop").orElseThrow()));

    private static VmSpec vm(String name, Map<String, Object> vmParams, List<VcpuSchedParamsSpec> vcpus) {
        return new VmSpec(name, 2, null, null, null, null, null, null, null, null, null,
                new WorkloadSpec("cpu-loop", Map.of("workSeconds", 0.1)), vmParams, vcpus);
    }

    private static Validation validate(List<VmSpec> vms, List<TimelineAction> timeline) {
        return ENGINE.validate(TestSpecs.spec(TestSpecs.host(1, 2, 1), POLICY.name(), 1.0, vms, timeline),
                Limits.defaults());
    }

    private static TimelineAction setParams(double at, String vm, Integer vcpu, Map<String, Object> params) {
        return new TimelineAction(at, TimelineAction.Kind.SET_SCHED_PARAMS, vm, vcpu, null, null, null, null, params);
    }

    @Test
    void badNamesRangesAndVcpuIndicesArePointedAt() {
        Validation v = validate(List.of(vm("a", Map.of("periodUs", 5, "nope", 1),
                List.of(new VcpuSchedParamsSpec(0, Map.of("budgetUs", 2_000_000)),
                        new VcpuSchedParamsSpec(2, Map.of("budgetUs", "x"))))), List.of());
        assertThat(v.violations()).extracting(Violation::pointer).containsExactlyInAnyOrder(
                "/vms/0/schedParams/periodUs", "/vms/0/schedParams/nope", "/vms/0/vcpuSchedParams/0/params/budgetUs",
                "/vms/0/vcpuSchedParams/1/vcpu", "/vms/0/vcpuSchedParams/1/params/budgetUs");
        Validation tooMany = validate(List.of(vm("b", null, List.of(new VcpuSchedParamsSpec(0, Map.of()),
                new VcpuSchedParamsSpec(1, Map.of()), new VcpuSchedParamsSpec(1, Map.of())))), List.of());
        assertThat(tooMany.violations()).extracting(Violation::pointer).containsExactly("/vms/0/vcpuSchedParams");
        Validation twice = validate(List.of(vm("b", null, List.of(new VcpuSchedParamsSpec(1, Map.of()),
                new VcpuSchedParamsSpec(1, Map.of())))), List.of());
        assertThat(twice.violations()).extracting(Violation::pointer).containsExactly("/vms/0/vcpuSchedParams/1/vcpu");
    }

    @Test
    void theCrossFieldRuleNamesTheField() {
        Validation v = validate(List.of(vm("a", Map.of("periodUs", 3000),
                List.of(new VcpuSchedParamsSpec(1, Map.of("periodUs", 20_000, "budgetUs", 5000))))), List.of());
        // vCPU 0 and the VM inherit budget 4000 > period 3000; vCPU 1's own values are fine.
        assertThat(v.violations()).extracting(Violation::pointer).containsExactly("/vms/0/schedParams/budgetUs");

        Validation own = validate(List.of(vm("a", Map.of(),
                List.of(new VcpuSchedParamsSpec(1, Map.of("budgetUs", 50_000))))), List.of());
        assertThat(own.violations()).extracting(Violation::pointer)
                .containsExactly("/vms/0/vcpuSchedParams/0/params/budgetUs");
    }

    @Test
    void defaultsAreFilledAndVcpusInheritTheVmLevelValue() {
        Validation v = validate(List.of(vm("a", Map.of("periodUs", 20_000),
                List.of(new VcpuSchedParamsSpec(1, Map.of("budgetUs", 7000))))), List.of());
        assertThat(v.violations()).isEmpty();
        VmSpec n = v.normalized().vms().get(0);
        assertThat(n.schedParams()).containsEntry("periodUs", 20_000L).containsEntry("budgetUs", 4_000L);
        assertThat(SchedParamsRules.vcpuParams(POLICY, n, 0)).containsEntry("periodUs", 20_000L)
                .containsEntry("budgetUs", 4_000L);
        assertThat(SchedParamsRules.vcpuParams(POLICY, n, 1)).containsEntry("periodUs", 20_000L)
                .containsEntry("budgetUs", 7_000L);
        Validation again = ENGINE.validate(v.normalized(), Limits.defaults());
        assertThat(again.normalized()).isEqualTo(v.normalized());
    }

    @Test
    void setSchedParamsIsCheckedAgainstTheValuesItMeets() {
        // Period first, then a budget that only fits the new period: valid in time order.
        Validation ok = validate(List.of(vm("a", null, null)), List.of(
                setParams(0.6, "a", 1, Map.of("budgetUs", 15_000)), setParams(0.5, "a", null, Map.of("periodUs", 20_000))));
        assertThat(ok.violations()).isEmpty();

        Validation bad = validate(List.of(vm("a", null, null)), List.of(
                setParams(0.5, "a", 1, Map.of("budgetUs", 15_000)), setParams(0.6, "a", null, Map.of("nope", 1)),
                setParams(0.7, "a", 5, Map.of("budgetUs", 10)), setParams(0.8, "a", null, null),
                new TimelineAction(0.9, TimelineAction.Kind.SET_CAP, "a", null, null, null, 10, null, Map.of("x", 1))));
        assertThat(bad.violations()).extracting(Violation::pointer).containsExactlyInAnyOrder(
                "/timeline/0/params/budgetUs", "/timeline/1/params/nope", "/timeline/2/vcpu", "/timeline/3/params",
                "/timeline/4/params");
    }

    @Test
    void aPolicyWithoutSchedParamsRejectsThem() {
        Validation v = Engine.standard().validate(TestSpecs.spec(TestSpecs.host(1, 2, 1), "credit", 1.0,
                List.of(vm("a", Map.of("periodUs", 1), List.of(new VcpuSchedParamsSpec(0, Map.of("budgetUs", 1))))),
                List.of()), Limits.defaults());
        assertThat(v.violations()).extracting(Violation::pointer).containsExactlyInAnyOrder(
                "/vms/0/schedParams/periodUs", "/vms/0/vcpuSchedParams/0/params/budgetUs");
    }
}
