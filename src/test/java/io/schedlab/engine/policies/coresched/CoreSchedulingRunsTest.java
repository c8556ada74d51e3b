package io.schedlab.engine.policies.coresched;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.output.PcpuResult;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.spec.CpuNumbering;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Whole runs under core scheduling: forced idle and its throughput cost, and granularities that collapse to cpu. */
class CoreSchedulingRunsTest {
    private static final Engine ENGINE = Engine.standard();
    private static final double SECONDS = 2.0;

    /**
     * One core with two threads, two domains of one endless vCPU each. At cpu granularity both run
     * side by side at the SMT rate (0.6 each, 1.2 together); with core scheduling the domains take
     * turns on the core and both vCPU 0s map to thread 0, so thread 1 idles whenever a unit runs.
     */
    @ParameterizedTest
    @ValueSource(strings = {"credit", "credit2"})
    void twoDomainsOnOneCoreTakeTurnsAndTheSiblingIdles(String policy) {
        ResultDocument cpu = run(spec(policy, "cpu", host(1, 1, true), twoSingleVcpuDomains()));
        ResultDocument core = run(spec(policy, "core", host(1, 1, true), twoSingleVcpuDomains()));

        assertThat(cpu.coreScheduling()).isNull();
        assertThat(cpu.pcpus()).allSatisfy(p -> assertThat(p.forcedIdleNanos()).isNull());
        assertThat(core.coreScheduling()).isNotNull();
        assertThat(core.coreScheduling().cpusPerResource()).isEqualTo(2);
        assertThat(core.coreScheduling().rendezvous()).isPositive();

        long elapsed = core.totals().simulatedNanos();
        PcpuResult sibling = core.pcpus().get(1);
        assertThat(sibling.forcedIdleNanos()).as("thread 1 idles while either domain's unit runs")
                .isGreaterThan(elapsed * 9 / 10);
        assertThat(sibling.forcedIdleNanos()).isLessThanOrEqualTo(sibling.idleNanos());
        assertThat(core.coreScheduling().forcedIdleNanos())
                .isEqualTo(core.pcpus().stream().mapToLong(PcpuResult::forcedIdleNanos).sum());

        double cpuWork = work(cpu, "A") + work(cpu, "B");
        double coreWork = work(core, "A") + work(core, "B");
        assertThat(cpuWork).as("cpu: both at the SMT rate").isBetween(1.1 * SECONDS, 1.25 * SECONDS);
        assertThat(coreWork).as("core: one domain at a time at full rate").isBetween(0.9 * SECONDS, 1.01 * SECONDS);
        assertThat(coreWork).isLessThan(cpuWork * 0.9);
        // The two domains still share the core fairly.
        assertThat(work(core, "A") / work(core, "B")).isBetween(0.8, 1.25);
    }

    /**
     * Numbered cores first (core 0 = pCPUs 0 and 2), two domains pinned to core 0 take turns on it and its
     * sibling pCPU 2 idles while a unit runs, while pCPU 1 (core 1's first thread) is untouched.
     */
    @ParameterizedTest
    @ValueSource(strings = {"credit", "credit2"})
    void aCoresSiblingsAreItsThreadsUnderTheHostsNumbering(String policy) {
        HostSpec coresFirst = new HostSpec(1, 2, 2, null, null, null, null, null, true, CpuNumbering.CORES_FIRST);
        List<VmSpec> onCore0 = List.of(pinned(endless("A", 1), List.of(0, 2)), pinned(endless("B", 1), List.of(0, 2)));
        ResultDocument core = run(spec(policy, "core", coresFirst, onCore0));
        long elapsed = core.totals().simulatedNanos();
        assertThat(core.coreScheduling().cpusPerResource()).isEqualTo(2);
        assertThat(core.pcpus().get(2).forcedIdleNanos()).as("pCPU 2, core 0's second thread")
                .isGreaterThan(elapsed * 9 / 10);
        assertThat(core.pcpus().get(1).busyNanos()).as("pCPU 1 is core 1's").isZero();
        assertThat(work(core, "A") + work(core, "B")).isBetween(0.9 * SECONDS, 1.01 * SECONDS);
    }

    private static VmSpec pinned(VmSpec vm, List<Integer> hard) {
        return new VmSpec(vm.name(), vm.vcpus(), null, null, hard, null, null, null, null, null, null, vm.workload());
    }

    /** cpupool_check_granularity counts online siblings: core with SMT off (or one thread per core) is cpu. */
    @ParameterizedTest
    @ValueSource(strings = {"credit", "credit2"})
    void aGranularityWithOnePcpuPerResourceIsExactlyCpu(String policy) {
        List<VmSpec> vms = List.of(vm("A", 3, 2.0), vm("B", 2, 0.7), vm("C", 1, 1.5));
        ResultDocument smtOff = run(spec(policy, "core", host(2, 2, false), vms));
        ResultDocument cpu = run(spec(policy, "cpu", host(2, 2, false), vms));
        ResultDocument oneThread = run(spec(policy, "core", new HostSpec(2, 2, 1, null, null, null, null), vms));
        assertThat(smtOff.coreScheduling()).isNull();
        assertThat(smtOff.pcpus()).hasSize(4);
        assertThat(withoutGranularity(smtOff)).isEqualTo(withoutGranularity(cpu));
        assertThat(withoutGranularity(oneThread)).isEqualTo(withoutGranularity(cpu));
    }

    /** SMT off: the sibling threads are offline, so a vCPU alone on its core runs at full rate. */
    @ParameterizedTest
    @ValueSource(strings = {"credit", "credit2"})
    void smtOffLeavesOneFullSpeedThreadPerCore(String policy) {
        ResultDocument off = run(spec(policy, "cpu", host(1, 2, false), twoSingleVcpuDomains()));
        ResultDocument on = run(spec(policy, "cpu", host(1, 1, true), twoSingleVcpuDomains()));
        assertThat(off.pcpus()).hasSize(2);
        assertThat(off.pcpus()).allSatisfy(p -> assertThat(p.thread()).isZero());
        assertThat(work(off, "A") + work(off, "B")).isBetween(1.95 * SECONDS, 2.0 * SECONDS);
        assertThat(work(on, "A") + work(on, "B")).isLessThan(1.3 * SECONDS);
    }

    private static double work(ResultDocument doc, String vm) {
        VmResult r = doc.vms().stream().filter(v -> v.name().equals(vm)).findFirst().orElseThrow();
        return r.headline().value() * SECONDS; // endless loops report work-seconds per second
    }

    private static ResultDocument withoutGranularity(ResultDocument d) {
        Map<String, Object> params = new java.util.TreeMap<>(d.policyParams());
        params.remove(SchedGranularity.PARAM);
        ResultDocument w = d.withoutWallTime();
        return new ResultDocument(w.engineVersion(), w.experiment(), w.policy(), params, w.seed(), w.stopReason(),
                w.partial(), w.summary(), w.totals(), w.fairness(), w.distributions(), w.vms(), w.pcpus(), w.runqueues(),
                w.policyStatistics(), w.hypervisorStatistics(), w.coreScheduling());
    }

    private static List<VmSpec> twoSingleVcpuDomains() {
        return List.of(endless("A", 1), endless("B", 1));
    }

    /** {@code sockets} x {@code cores} x 2 hardware threads, SMT on or off. */
    static HostSpec host(int sockets, int cores, boolean smt) {
        return new HostSpec(sockets, cores, 2, null, null, null, null, null, smt);
    }

    static VmSpec endless(String name, int vcpus) {
        return new VmSpec(name, vcpus, null, null, null, null, null, null, null, null, null,
                new WorkloadSpec("cpu-loop", Map.of("threads", vcpus, "workSeconds", 0)));
    }

    private static VmSpec vm(String name, int vcpus, double work) {
        return new VmSpec(name, vcpus, null, null, null, null, null, null, null, null, null,
                new WorkloadSpec("cpu-loop", Map.of("threads", vcpus, "workSeconds", work)));
    }

    static ExperimentSpec spec(String policy, String gran, HostSpec host, List<VmSpec> vms) {
        return new ExperimentSpec("core scheduling", null, 5L, SECONDS, ExperimentSpec.StopCondition.DURATION, host,
                new SchedulerSpec(policy, Map.of(SchedGranularity.PARAM, gran)), null, vms, null, null);
    }

    static ResultDocument run(ExperimentSpec raw) {
        Validation v = ENGINE.validate(raw, Limits.defaults());
        assertThat(v.violations()).as("violations").isEmpty();
        return ENGINE.run(v.normalized(), Limits.defaults(), RunControl.NONE);
    }
}
