package io.schedlab.engine;

import static io.schedlab.engine.TestSpecs.cpuLoop;
import static io.schedlab.engine.TestSpecs.host;
import static io.schedlab.engine.TestSpecs.spec;
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
import io.schedlab.engine.run.RunControl;

/** The null policy needs a pCPU of its own for each vCPU inside its hard affinity (null.c pick_res). */
class NullPolicyValidationTest {
    private final Engine engine = Engine.standard();

    private List<Violation> violations(ExperimentSpec s) {
        return engine.validate(s, Limits.defaults()).violations();
    }

    private static VmSpec pinned(String name, int vcpus, List<Integer> hard, List<Integer> placement) {
        return new VmSpec(name, vcpus, null, null, hard, null, null, null, null, placement, null,
                new WorkloadSpec("cpu-loop", Map.of("workSeconds", 1.0)));
    }

    @Test
    void twoVcpusPinnedToOnePcpuAreRejectedAtTheAffinity() {
        List<Violation> v = violations(spec(host(1, 2, 1), "null", 10, List.of(pinned("a", 2, List.of(0), null)),
                List.of()));
        assertThat(v).singleElement().satisfies(x -> {
            assertThat(x.pointer()).isEqualTo("/vms/0/hardAffinity");
            assertThat(x.message()).contains("vCPU 1 of VM 'a'").contains("pCPU 0 is taken by a.v0");
        });
    }

    @Test
    void twoVmsPinnedToTheSamePcpuAreRejectedAtTheSecond() {
        List<Violation> v = violations(spec(host(1, 2, 1), "null", 10,
                List.of(pinned("a", 1, List.of(1), null), pinned("b", 1, List.of(1), null)), List.of()));
        assertThat(v).extracting(Violation::pointer).containsExactly("/vms/1/hardAffinity");
        assertThat(v.get(0).message()).contains("VM 'b'").contains("pCPU 1 is taken by a.v0");
        // the same VMs under a time-sharing policy are fine
        assertThat(violations(spec(host(1, 2, 1), "credit", 10,
                List.of(pinned("a", 1, List.of(1), null), pinned("b", 1, List.of(1), null)), List.of()))).isEmpty();
    }

    @Test
    void anAssignedVcpuIsNeverMovedToMakeRoom() {
        // a may run on 0 or 1 and starts on 0 (its placement); null.c never moves it, so b (only 0) waits forever,
        // although a one-to-one matching (a -> 1, b -> 0) exists
        List<Violation> v = violations(spec(host(1, 2, 1), "null", 10,
                List.of(pinned("a", 1, List.of(0, 1), List.of(0)), pinned("b", 1, List.of(0), null)), List.of()));
        assertThat(v).extracting(Violation::pointer).containsExactly("/vms/1/hardAffinity");
        assertThat(v.get(0).message()).contains("pCPU 0 is taken by a.v0");
        // placed on 1, a leaves 0 free for b
        ExperimentSpec fits = spec(host(1, 2, 1), "null", 10,
                List.of(pinned("a", 1, List.of(0, 1), List.of(1)), pinned("b", 1, List.of(0), null)), List.of());
        assertThat(violations(fits)).isEmpty();
        assertThat(Seconds.of(engine.run(engine.validate(fits, Limits.defaults()).normalized(), Limits.defaults(),
                RunControl.NONE).vms().get(1).completionNanos())).isNotNull();
    }

    @Test
    void theRejectedCaseReallyNeverRunsInTheSimulator() {
        // normalize under static, then simulate the same spec under null: b never gets a pCPU
        ExperimentSpec s = spec(host(1, 2, 1), "static", 5,
                List.of(pinned("a", 1, List.of(0, 1), List.of(0)), pinned("b", 1, List.of(0), null)), List.of());
        ExperimentSpec n = engine.validate(s, Limits.defaults()).normalized();
        ExperimentSpec asNull = new ExperimentSpec(n.name(), n.labels(), n.seed(), n.durationSeconds(),
                ExperimentSpec.StopCondition.DURATION, n.host(), new io.schedlab.engine.spec.SchedulerSpec("null",
                        Map.of()), n.costs(), n.vms(), n.timeline(), n.trace());
        // straight to the simulator: Engine.run would (rightly) refuse the spec
        io.schedlab.engine.sim.Simulator sim = new io.schedlab.engine.sim.Simulator(asNull, engine.registry(),
                Limits.defaults(), RunControl.NONE);
        sim.run();
        var d = io.schedlab.engine.sim.ResultBuilder.build(sim, 0);
        assertThat(Seconds.of(d.vms().get(0).cpuNanosAllVcpus())).isGreaterThan(0.9); // a ran its 1 s of work
        assertThat(Seconds.of(d.vms().get(1).cpuNanosAllVcpus())).isZero();
        assertThat(violations(new ExperimentSpec(s.name(), s.labels(), s.seed(), s.durationSeconds(), s.stopWhen(),
                s.host(), new io.schedlab.engine.spec.SchedulerSpec("null", null), s.costs(), s.vms(), s.timeline(),
                s.trace()))).extracting(Violation::pointer).containsExactly("/vms/1/hardAffinity");
    }

    @Test
    void aPerVcpuOverrideIsNamedByItsPointer() {
        VmSpec b = new VmSpec("b", 2, null, null, null, null,
                List.of(new io.schedlab.engine.spec.VcpuAffinitySpec(1, List.of(0), null)), null, null, null, null,
                new WorkloadSpec("cpu-loop", Map.of("workSeconds", 1.0)));
        List<Violation> v = violations(spec(host(1, 3, 1), "null", 10, List.of(cpuLoop("a", 0, 1), b), List.of()));
        assertThat(v).extracting(Violation::pointer).containsExactly("/vms/1/vcpuAffinity/0/hard");
        assertThat(v.get(0).message()).contains("vCPU 1 of VM 'b'").contains("pCPU 0 is taken by a.v0");
    }

    @Test
    void aVcpuWaitingForAShutdownIsAccepted() {
        ExperimentSpec s = spec(host(1, 2, 1), "null", 10,
                List.of(cpuLoop("holder", 0, 5), pinned("waiter", 1, List.of(0), null)),
                List.of(new TimelineAction(2.0, TimelineAction.Kind.SHUTDOWN, "holder", null, null, null, null,
                        null)));
        assertThat(violations(s)).isEmpty();
        ExperimentSpec noShutdown = spec(host(1, 2, 1), "null", 10,
                List.of(pinned("holder", 1, List.of(0), null), pinned("waiter", 1, List.of(0), null)), List.of());
        assertThat(violations(noShutdown)).extracting(Violation::pointer).containsExactly("/vms/1/hardAffinity");
    }

    @Test
    void aCreatedVmThatOverflowsIsReportedAtItsNewVm() {
        TimelineAction create = new TimelineAction(1.0, TimelineAction.Kind.CREATE_VM, null, null, null, null, null,
                pinned("c", 1, null, null));
        List<Violation> v = violations(spec(host(1, 2, 1), "null", 10,
                List.of(cpuLoop("a", 0, 5), cpuLoop("b", 1, 5)), List.of(create)));
        assertThat(v).extracting(Violation::pointer).containsExactly("/timeline/0/newVm");
        assertThat(v.get(0).message()).contains("one vCPU per pCPU").contains("VM 'c'");
    }

    @Test
    void aCreatedVmPinnedToATakenPcpuIsReportedAtItsNewVmAffinity() {
        TimelineAction create = new TimelineAction(1.0, TimelineAction.Kind.CREATE_VM, null, null, null, null, null,
                pinned("c", 1, List.of(0), null));
        List<Violation> v = violations(spec(host(1, 2, 1), "null", 10, List.of(cpuLoop("a", 0, 5)),
                List.of(create)));
        assertThat(v).extracting(Violation::pointer).containsExactly("/timeline/0/newVm/hardAffinity");
        assertThat(v.get(0).message()).contains("pCPU 0 is taken by a.v0");
    }

    @Test
    void aNegativeActionTimeGivesOneClearError() {
        List<Violation> v = violations(spec(host(1, 2, 1), "static", 10, List.of(cpuLoop("a", 0, 1)),
                List.of(TestSpecs.pin(-1, "a", 0, 1))));
        assertThat(v).singleElement().satisfies(x -> {
            assertThat(x.pointer()).isEqualTo("/timeline/0/atSeconds");
            assertThat(x.message()).contains(">= 0");
        });
    }
}
