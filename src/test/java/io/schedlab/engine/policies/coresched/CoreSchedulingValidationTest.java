package io.schedlab.engine.policies.coresched;

import static io.schedlab.engine.policies.coresched.CoreSchedulingRunsTest.endless;
import static io.schedlab.engine.policies.coresched.CoreSchedulingRunsTest.host;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.Validation;
import io.schedlab.engine.spec.CpuNumbering;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.TimelineAction;
import io.schedlab.engine.spec.VcpuAffinitySpec;
import io.schedlab.engine.spec.Violation;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What core scheduling accepts and what it rejects, each time with the pointer of the field at fault. */
class CoreSchedulingValidationTest {
    private static final Engine ENGINE = Engine.standard();
    private static final HostSpec TWO_CORES = host(1, 2, true); // pCPUs 0,1 = core 0; 2,3 = core 1

    @Test
    void theDefaultIsCpuAndIsFilledIn() {
        Validation v = validate(spec("credit", Map.of(), TWO_CORES, List.of(endless("A", 2)), List.of()));
        assertThat(v.violations()).isEmpty();
        assertThat(v.normalized().scheduler().params()).containsEntry(SchedGranularity.PARAM, "cpu");
        assertThat(v.normalized().host().smt()).isTrue();
    }

    @Test
    void credit2BeforeXen413HasNoCoreScheduling() {
        Validation old = validate(spec("credit2", Map.of("schedGran", "core", "xenVersion", "4.12"), TWO_CORES,
                List.of(endless("A", 2)), List.of()));
        assertThat(old.violations()).extracting(Violation::pointer).containsExactly("/scheduler/params/schedGran");
        assertThat(old.violations().get(0).message()).contains("xenVersion >= 4.13").contains("4.12");
        assertThat(validate(spec("credit2", Map.of("schedGran", "socket", "xenVersion", "4.13"), TWO_CORES,
                List.of(endless("A", 2)), List.of())).violations()).isEmpty();
    }

    @Test
    void unknownGranularityAndPoliciesWithoutItAreRejected() {
        assertThat(validate(spec("credit", Map.of("schedGran", "thread"), TWO_CORES, List.of(endless("A", 1)),
                List.of())).violations()).extracting(Violation::pointer).containsExactly("/scheduler/params/schedGran");
        assertThat(validate(spec("static", Map.of("schedGran", "core"), TWO_CORES, List.of(endless("A", 1)),
                List.of())).violations()).extracting(Violation::pointer).containsExactly("/scheduler/params/schedGran");
    }

    @Test
    void hardAffinityMustHoldWholeCores() {
        VmSpec half = withHard(endless("A", 2), List.of(0, 1, 2));
        Validation v = validate(spec("credit", Map.of("schedGran", "core"), TWO_CORES, List.of(half), List.of()));
        assertThat(v.violations()).extracting(Violation::pointer).containsExactly("/vms/0/hardAffinity",
                "/vms/0/hardAffinity");
        assertThat(v.violations().get(0).message()).contains("whole cores").contains("pCPUs [2, 3]");
        VmSpec whole = withHard(endless("A", 2), List.of(2, 3));
        assertThat(validate(spec("credit", Map.of("schedGran", "core"), TWO_CORES, List.of(whole), List.of()))
                .violations()).isEmpty();
        assertThat(validate(spec("credit", Map.of("schedGran", "cpu"), TWO_CORES, List.of(half), List.of()))
                .violations()).isEmpty();
    }

    @Test
    void aWholeCoreIsItsSiblingsUnderTheHostsNumbering() {
        HostSpec coresFirst = new HostSpec(1, 2, 2, null, null, null, null, null, true, CpuNumbering.CORES_FIRST);
        VmSpec core0 = withHard(endless("A", 2), List.of(0, 2)); // cores first: core 0 = pCPUs 0 and 2
        assertThat(validate(spec("credit", Map.of("schedGran", "core"), coresFirst, List.of(core0), List.of()))
                .violations()).isEmpty();
        VmSpec adjacentPair = withHard(endless("A", 2), List.of(0, 1)); // one thread of each core
        Validation v = validate(spec("credit", Map.of("schedGran", "core"), coresFirst, List.of(adjacentPair),
                List.of()));
        assertThat(v.violations()).extracting(Violation::pointer).contains("/vms/0/hardAffinity");
        assertThat(v.violations().get(0).message()).contains("pCPUs [0, 2]");
    }

    @Test
    void theVcpusOfOneUnitShareTheirHardAffinity() {
        VmSpec split = new VmSpec("A", 2, null, null, null, null,
                List.of(new VcpuAffinitySpec(1, List.of(2, 3), null)), null, null, List.of(0, 2), null,
                new WorkloadSpec("cpu-loop", Map.of("workSeconds", 0)));
        Validation v = validate(spec("credit2", Map.of("schedGran", "core"), TWO_CORES, List.of(split), List.of()));
        assertThat(v.violations()).extracting(Violation::pointer).containsExactly("/vms/0/vcpuAffinity/0/hard");
        assertThat(v.violations().get(0).message()).contains("one scheduling unit");
    }

    @Test
    void pinningMidRunIsNotModelledUnderCoreScheduling() {
        TimelineAction pin = new TimelineAction(0.5, TimelineAction.Kind.PIN, "A", null, List.of(0, 1), null, null,
                null);
        Validation v = validate(spec("credit", Map.of("schedGran", "core"), TWO_CORES, List.of(endless("A", 2)),
                List.of(pin)));
        assertThat(v.violations()).extracting(Violation::pointer).containsExactly("/timeline/0/action");
        // A granularity that collapses to cpu (SMT off) keeps everything cpu allows.
        TimelineAction pinOne = new TimelineAction(0.5, TimelineAction.Kind.PIN, "A", 0, List.of(1), null, null,
                null);
        assertThat(validate(spec("credit", Map.of("schedGran", "core"), host(1, 2, false), List.of(endless("A", 2)),
                List.of(pinOne))).violations()).isEmpty();
    }

    @Test
    void withSmtOffOnlyOneThreadPerCoreExists() {
        VmSpec onThread3 = withHard(endless("A", 1), List.of(3));
        Validation v = validate(spec("credit", Map.of(), host(1, 2, false), List.of(onThread3), List.of()));
        assertThat(v.violations()).extracting(Violation::pointer).allMatch(p -> p.startsWith("/vms/0/hardAffinity"));
        assertThat(v.violations()).isNotEmpty();
    }

    private static VmSpec withHard(VmSpec vm, List<Integer> hard) {
        return new VmSpec(vm.name(), vm.vcpus(), null, null, hard, null, null, null, null, null, null, vm.workload());
    }

    private static ExperimentSpec spec(String policy, Map<String, Object> params, HostSpec host, List<VmSpec> vms,
            List<TimelineAction> timeline) {
        return new ExperimentSpec("v", null, 1L, 1.0, ExperimentSpec.StopCondition.DURATION, host,
                new SchedulerSpec(policy, params), null, vms, timeline, null);
    }

    private static Validation validate(ExperimentSpec raw) {
        return ENGINE.validate(raw, Limits.defaults());
    }
}
