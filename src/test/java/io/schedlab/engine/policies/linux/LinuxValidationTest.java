package io.schedlab.engine.policies.linux;

import static io.schedlab.engine.policies.linux.LinuxRuns.endlessLoop;
import static io.schedlab.engine.policies.linux.LinuxRuns.host;
import static io.schedlab.engine.policies.linux.LinuxRuns.hostThreads;
import static io.schedlab.engine.policies.linux.LinuxRuns.spec;
import static io.schedlab.engine.policies.linux.LinuxRuns.vm;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.Validation;
import io.schedlab.engine.spec.HostThreadSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.Violation;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bad hypervisor/policy combinations and host threads are violations naming the field. */
class LinuxValidationTest {
    private final Engine engine = Engine.standard();

    private List<Violation> violations(SchedulerSpec scheduler) {
        return engine.validate(spec(host(1, 2, 1), scheduler, 1, List.of(vm("guest", 1, null, endlessLoop(1)))),
                Limits.defaults()).violations();
    }

    @Test
    void linuxPoliciesDefaultToKvmAndRefuseXen() {
        Validation ok = engine.validate(spec(host(1, 2, 1), new SchedulerSpec("cfs", null), 1,
                List.of(vm("guest", 1, null, endlessLoop(1)))), Limits.defaults());
        assertThat(ok.violations()).isEmpty();
        assertThat(ok.normalized().scheduler().hypervisor()).isEqualTo("kvm");
        assertThat(violations(new SchedulerSpec("eevdf", null, "xen"))).singleElement().satisfies(v -> {
            assertThat(v.pointer()).isEqualTo("/scheduler/hypervisor");
            assertThat(v.message()).contains("eevdf").contains("kvm").contains("credit");
        });
        assertThat(violations(new SchedulerSpec("credit2", null, "kvm"))).singleElement().satisfies(v -> {
            assertThat(v.pointer()).isEqualTo("/scheduler/hypervisor");
            assertThat(v.message()).contains("cfs").contains("eevdf");
        });
    }

    @Test
    void hostThreadsNeedKvm() {
        assertThat(violations(new SchedulerSpec("credit", null, null, List.of(hostThreads("make", 4, 0)))))
                .extracting(Violation::pointer).containsExactly("/scheduler/hostThreads");
    }

    @Test
    void hostThreadFieldsAreCheckedOneByOne() {
        List<Violation> out = violations(new SchedulerSpec("cfs", null, null, List.of(
                new HostThreadSpec("guest", 2, 0, endlessLoop(2)),
                new HostThreadSpec("io", 0, 20, endlessLoop(1)),
                new HostThreadSpec("bad name!", 1, -21, new WorkloadSpec("no-such", Map.of())),
                new HostThreadSpec("make", 1, 0, null))));
        assertThat(out).extracting(Violation::pointer).containsExactlyInAnyOrder(
                "/scheduler/hostThreads/0/name", "/scheduler/hostThreads/1/threads",
                "/scheduler/hostThreads/1/nice", "/scheduler/hostThreads/2/name", "/scheduler/hostThreads/2/nice",
                "/scheduler/hostThreads/2/workload/type", "/scheduler/hostThreads/3/workload");
        assertThat(out.get(0).message()).isNotBlank();
    }

    @Test
    void servedGuestsAndBoundCpusAreCheckedOneByOne() {
        List<Violation> out = violations(new SchedulerSpec("cfs", null, null, List.of(
                new HostThreadSpec("vhost", 2, 0, endlessLoop(2), List.of("no-such-vm"), List.of(0, 0)),
                new HostThreadSpec("io", 1, 0, endlessLoop(1), null, List.of(-1, 99)))));
        assertThat(out).extracting(Violation::pointer).containsExactlyInAnyOrder(
                "/scheduler/hostThreads/0/serves/0", "/scheduler/hostThreads/0/cpus/1",
                "/scheduler/hostThreads/1/cpus/0", "/scheduler/hostThreads/1/cpus/1");
        assertThat(out).extracting(Violation::message).anyMatch(m -> m.contains("VM of the spec"))
                .anyMatch(m -> m.contains("duplicate CPU 0")).anyMatch(m -> m.contains("host CPU"));
    }

    @Test
    void cgroupNamesAreCheckedForHostThreadsAndVms() {
        List<Violation> out = violations(new SchedulerSpec("cfs", null, null, List.of(
                new HostThreadSpec("vhost", 1, 0, endlessLoop(1), null, null, "machine.slice"),
                new HostThreadSpec("io", 1, 0, endlessLoop(1), null, null, "../escape"),
                new HostThreadSpec("kw", 1, 0, endlessLoop(1), null, null, "x".repeat(65)))));
        assertThat(out).extracting(Violation::pointer).containsExactlyInAnyOrder(
                "/scheduler/hostThreads/1/cgroup", "/scheduler/hostThreads/2/cgroup");
        List<Violation> vm = engine.validate(spec(host(1, 2, 1), new SchedulerSpec("eevdf", null), 1,
                List.of(new io.schedlab.engine.spec.VmSpec("guest", 1, null, null, null, null, null, null, null, null,
                        null, endlessLoop(1), Map.of("cgroup", "a/b"), null))), Limits.defaults()).violations();
        assertThat(vm).isNotEmpty().allSatisfy(v -> assertThat(v.pointer() + v.message()).contains("cgroup"));
    }

    @Test
    void emptyServedAndCpuListsMeanNoneAndEveryCpu() {
        // a generated client sends [] for a list its caller left unset
        assertThat(violations(new SchedulerSpec("cfs", null, null, List.of(
                new HostThreadSpec("io", 1, 0, endlessLoop(1), List.of(), List.of()))))).isEmpty();
    }

    @Test
    void capsAreRefusedUnderKvm() {
        List<Violation> out = engine.validate(spec(host(1, 2, 1), new SchedulerSpec("eevdf", null), 1,
                List.of(new io.schedlab.engine.spec.VmSpec("guest", 1, null, 50, null, null, null, null, null, null,
                        null, endlessLoop(1)))), Limits.defaults()).violations();
        assertThat(out).singleElement().satisfies(v -> {
            assertThat(v.pointer()).isEqualTo("/vms/0/cap");
            assertThat(v.message()).contains("cpu.max");
        });
        assertThat(engine.validate(spec(host(1, 2, 1), new SchedulerSpec("credit", null), 1,
                List.of(new io.schedlab.engine.spec.VmSpec("guest", 1, null, 50, null, null, null, null, null, null,
                        null, endlessLoop(1)))), Limits.defaults()).violations()).isEmpty();
    }

    @Test
    void hostThreadDefaultsAreFilledIn() {
        Validation v = engine.validate(spec(host(1, 2, 1), new SchedulerSpec("cfs", null, null,
                List.of(new HostThreadSpec("make", null, null, new WorkloadSpec("cpu-loop", null)))), 1,
                List.of(vm("guest", 1, null, endlessLoop(1)))), Limits.defaults());
        assertThat(v.violations()).isEmpty();
        HostThreadSpec g = v.normalized().scheduler().hostThreads().get(0);
        assertThat(g.threads()).isEqualTo(1);
        assertThat(g.nice()).isEqualTo(0);
        assertThat(g.workload().params()).containsKey("workSeconds");
        assertThat(engine.validate(v.normalized(), Limits.defaults()).normalized()).isEqualTo(v.normalized());
    }
}
