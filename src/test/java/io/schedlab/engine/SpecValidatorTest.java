package io.schedlab.engine;

import static io.schedlab.engine.TestSpecs.cpuLoop;
import static io.schedlab.engine.TestSpecs.dom0;
import static io.schedlab.engine.TestSpecs.host;
import static io.schedlab.engine.TestSpecs.pin;
import static io.schedlab.engine.TestSpecs.spec;
import static io.schedlab.engine.TestSpecs.vm;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.TimelineAction;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.Violation;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every rule of the validator answers with a JSON pointer to the offending field. */
class SpecValidatorTest {
    private final Engine engine = Engine.standard();

    private List<Violation> violations(ExperimentSpec s) {
        return engine.validate(s, Limits.defaults()).violations();
    }

    private static ExperimentSpec valid() {
        return spec(host(1, 2, 1), "static", 100, List.of(dom0(2), cpuLoop("VM1", 1, 5)), List.of());
    }

    @Test
    void aValidSpecNormalizesWithEveryDefaultFilled() {
        Validation v = engine.validate(valid(), Limits.defaults());
        assertThat(v.violations()).isEmpty();
        ExperimentSpec n = v.normalized();
        assertThat(n.host().numaNodes()).hasSize(1);
        assertThat(n.host().numaDistance()).containsExactly(List.of(10));
        assertThat(n.vms().get(1).weight()).isEqualTo(256);
        assertThat(n.vms().get(1).hardAffinity()).containsExactly(0, 1);
        assertThat(n.vms().get(1).workload().params()).containsEntry("threads", 1L).containsEntry("workSeconds", 5.0);
        assertThat(n.scheduler().params()).containsEntry("sliceMs", 30L);
        assertThat(n.costs()).containsKey("contextSwitchNanos");
        assertThat(n.trace().enabled()).isFalse();
    }

    @Test
    void normalizingIsIdempotent() {
        ExperimentSpec once = engine.validate(valid(), Limits.defaults()).normalized();
        Validation twice = engine.validate(once, Limits.defaults());
        assertThat(twice.violations()).isEmpty();
        assertThat(twice.normalized()).isEqualTo(once);
    }

    @Test
    void roundRobinPlacementCyclesInsideHardAffinityAndTheDefaultIsXensCreationPlacement() {
        VmSpec a = new VmSpec("a", 3, null, null, List.of(1, 3), null, null, null, null, null, null,
                new WorkloadSpec("idle", null));
        VmSpec roundRobin = new VmSpec("a", 3, null, null, List.of(1, 3), null, null, null, null, null, null,
                new WorkloadSpec("idle", null), null, null, "round-robin");
        assertThat(engine.validate(spec(host(1, 4, 1), "static", 10, List.of(roundRobin), List.of()), Limits.defaults())
                .normalized().vms().get(0).placement()).containsExactly(1, 3, 1);
        // hypervisor-default: created on 0, 1, 2 (sched_select_initial_cpu), each moved to the next CPU its hard
        // affinity allows
        ExperimentSpec s = engine.validate(spec(host(1, 4, 1), "static", 10, List.of(a), List.of()), Limits.defaults())
                .normalized();
        assertThat(s.vms().get(0).placement()).containsExactly(1, 1, 3);
        assertThat(s.vms().get(0).placementRule()).isEqualTo("hypervisor-default");
    }

    @Test
    void stopConditionDefaultsToAllCompleteOnlyWhenEveryWorkloadIsFinite() {
        ExperimentSpec finite = new ExperimentSpec(null, null, null, 10.0, null, host(1, 1, 1),
                new io.schedlab.engine.spec.SchedulerSpec("static", null), null, List.of(cpuLoop("a", 0, 1)), null,
                null);
        assertThat(engine.validate(finite, Limits.defaults()).normalized().stopWhen())
                .isEqualTo(ExperimentSpec.StopCondition.ALL_COMPLETE);
        ExperimentSpec mixed = new ExperimentSpec(null, null, null, 10.0, null, host(1, 2, 1),
                new io.schedlab.engine.spec.SchedulerSpec("static", null), null, List.of(dom0(1), cpuLoop("a", 0, 1)),
                null, null);
        assertThat(engine.validate(mixed, Limits.defaults()).normalized().stopWhen())
                .isEqualTo(ExperimentSpec.StopCondition.DURATION);
    }

    @Test
    void unknownPolicyListsTheKnownOnes() {
        ExperimentSpec s = spec(host(1, 2, 1), "bogus", 10, List.of(dom0(2)), List.of());
        assertThat(violations(s)).singleElement().satisfies(v -> {
            assertThat(v.pointer()).isEqualTo("/scheduler/policy");
            assertThat(v.message()).contains("bogus").contains("static").contains("null");
        });
    }

    @Test
    void unknownWorkloadTypeAndParameterAreNamed() {
        ExperimentSpec s = spec(host(1, 2, 1), "static", 10, List.of(
                vm("a", 1, null, "nope", null),
                vm("b", 1, null, "cpu-loop", Map.of("workSecs", 3))), List.of());
        assertThat(violations(s)).extracting(Violation::pointer)
                .containsExactly("/vms/0/workload/type", "/vms/1/workload/params/workSecs");
    }

    @Test
    void parameterBoundsAndTypesAreChecked() {
        ExperimentSpec s = spec(host(1, 2, 1), "static", 10, List.of(
                vm("a", 1, null, "cpu-loop", Map.of("workSeconds", -1, "threads", 2.5))), List.of());
        assertThat(violations(s)).extracting(Violation::pointer)
                .containsExactlyInAnyOrder("/vms/0/workload/params/workSeconds", "/vms/0/workload/params/threads");
    }

    @Test
    void theRefillProgressFractionStaysBelowOneSoTheRefillStaysFinite() {
        ExperimentSpec v = valid();
        for (double bad : new double[] {-0.1, 0.95, 1.0}) {
            ExperimentSpec s = new ExperimentSpec(v.name(), v.labels(), v.seed(), v.durationSeconds(), v.stopWhen(),
                    v.host(), v.scheduler(), Map.of("refillProgressFraction", bad), v.vms(), v.timeline(), v.trace());
            assertThat(violations(s)).as("fraction %s", bad).extracting(Violation::pointer)
                    .containsExactly("/costs/refillProgressFraction");
        }
        ExperimentSpec ok = new ExperimentSpec(v.name(), v.labels(), v.seed(), v.durationSeconds(), v.stopWhen(),
                v.host(), v.scheduler(), Map.of("refillProgressFraction", 0.9), v.vms(), v.timeline(), v.trace());
        assertThat(violations(ok)).isEmpty();
    }

    @Test
    void placementOutsideHostOrHardAffinityIsRejected() {
        ExperimentSpec s = spec(host(1, 2, 1), "static", 10, List.of(
                vm("a", 1, List.of(5), "idle", null),
                new VmSpec("b", 1, null, null, List.of(0), null, null, null, null, List.of(1), null,
                        new WorkloadSpec("idle", null))), List.of());
        assertThat(violations(s)).extracting(Violation::pointer).containsExactly("/vms/0/placement/0");
        ExperimentSpec s2 = spec(host(1, 2, 1), "static", 10, List.of(
                new VmSpec("b", 1, null, null, List.of(0), null, null, null, null, List.of(1), null,
                        new WorkloadSpec("idle", null))), List.of());
        assertThat(violations(s2)).singleElement().satisfies(v -> {
            assertThat(v.pointer()).isEqualTo("/vms/0/placement/0");
            assertThat(v.message()).contains("hard affinity");
        });
    }

    @Test
    void emptyHardAffinityMeansNotSetAndABadPcpuIsRejected() {
        ExperimentSpec s = spec(host(1, 2, 1), "static", 10, List.of(
                new VmSpec("a", 1, null, null, List.of(), List.of(7), null, null, null, null, null,
                        new WorkloadSpec("idle", null))), List.of());
        assertThat(violations(s)).extracting(Violation::pointer)
                .containsExactly("/vms/0/softAffinity/0");
    }

    @Test
    void duplicateVmNamesAreRejected() {
        ExperimentSpec s = spec(host(1, 2, 1), "static", 10, List.of(dom0(1), dom0(1)), List.of());
        assertThat(violations(s)).extracting(Violation::pointer).containsExactly("/vms/1/name");
    }

    @Test
    void timelineTargetsMustExistAtThatTime() {
        VmSpec later = vm("late", 2, null, "idle", null);
        ExperimentSpec s = spec(host(1, 2, 1), "static", 10, List.of(dom0(1)), List.of(
                pin(1, "late", 0, 1), // before it is created
                new TimelineAction(2.0, TimelineAction.Kind.CREATE_VM, null, null, null, null, null, later),
                pin(3, "late", 1, 1), // fine
                pin(4, "late", 2, 1), // no vCPU 2
                pin(20, "dom0", 0, 0), // beyond the duration
                pin(5, "ghost", 0, 0)));
        assertThat(violations(s)).extracting(Violation::pointer)
                .containsExactlyInAnyOrder("/timeline/0/vm", "/timeline/3/vcpu", "/timeline/4/atSeconds",
                        "/timeline/5/vm");
    }

    @Test
    void nullPolicyRejectsMoreVcpusThanPcpus() {
        ExperimentSpec s = spec(host(1, 2, 1), "null", 10, List.of(dom0(2), cpuLoop("a", 1, 1)), List.of());
        assertThat(violations(s)).singleElement().satisfies(v -> assertThat(v.pointer()).isEqualTo("/vms"));
    }

    @Test
    void limitsBoundEverySize() {
        Limits tight = new Limits(2, 2, 2, 5, 1000, 1, 10);
        ExperimentSpec s = spec(host(1, 4, 1), "static", 10, List.of(dom0(3)), List.of(pin(1, "dom0", 0, 0),
                pin(2, "dom0", 0, 0)));
        // sizes first: an oversized list is named before any entry of anything is checked
        assertThat(engine.validate(s, tight).violations()).extracting(Violation::pointer)
                .containsExactlyInAnyOrder("/vms/0/placement", "/timeline");
        // then every other bound at once
        ExperimentSpec fits = spec(host(1, 4, 1), "static", 10, List.of(dom0(2)), List.of(pin(1, "dom0", 0, 0)));
        assertThat(engine.validate(fits, tight).violations()).extracting(Violation::pointer)
                .contains("/host", "/durationSeconds");
    }

    @Test
    void missingPartsAreNamed() {
        ExperimentSpec s = new ExperimentSpec(null, null, null, null, null, null, null, null, null, null, null);
        assertThat(violations(s)).extracting(Violation::pointer).contains("/host", "/scheduler", "/vms");
        assertThat(engine.validate(null, Limits.defaults()).valid()).isFalse();
    }

    @Test
    void anOversizedListIsOneViolationAtItsPointerBeforeAnyElementIsChecked() {
        Limits limits = Limits.defaults();
        // 50,000 VMs with an unknown workload each: one size violation, not 50,000 workload violations
        List<VmSpec> vms = java.util.Collections.nCopies(50_000,
                new VmSpec("x", 1, null, null, null, null, null, null, null, null, null, new WorkloadSpec("nope", null)));
        ExperimentSpec many = spec(host(1, 2, 1), "static", 100, vms, List.of());
        long start = System.nanoTime();
        assertThat(engine.validate(many, limits).violations()).singleElement().satisfies(v -> {
            assertThat(v.pointer()).isEqualTo("/vms");
            assertThat(v.message()).contains("at most " + limits.maxVms() + " VMs", "got 50000");
        });
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms").isLessThan(500);
        List<Integer> placement = java.util.Collections.nCopies(limits.maxVcpus() + 1, 0);
        ExperimentSpec placed = spec(host(1, 2, 1), "static", 100, List.of(new VmSpec("VM1", 1, null, null, null, null,
                null, null, null, placement, null, new WorkloadSpec("cpu-loop", null))), List.of());
        assertThat(violations(placed)).singleElement().satisfies(v -> {
            assertThat(v.pointer()).isEqualTo("/vms/0/placement");
            assertThat(v.message()).contains("at most " + limits.maxVcpus());
        });
        ExperimentSpec longType = spec(host(1, 2, 1), "static", 100, List.of(new VmSpec("VM1", 1, null, null, null,
                null, null, null, null, null, null, new WorkloadSpec("t".repeat(100_000), null))), List.of());
        assertThat(violations(longType)).singleElement().satisfies(v -> {
            assertThat(v.pointer()).isEqualTo("/vms/0/workload/type");
            assertThat(v.message()).as("the name is not echoed back").hasSizeLessThan(100);
        });
    }
}
