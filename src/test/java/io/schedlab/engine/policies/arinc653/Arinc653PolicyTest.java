package io.schedlab.engine.policies.arinc653;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.TraceSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ARINC 653 (xen/common/sched/arinc653.c): vCPUs run only inside their minor frames; the rest idles. */
class Arinc653PolicyTest {
    private static final long MS = 1_000_000L;
    private final Engine engine = Engine.standard().withSelfCheck();

    /** One switch record: when, on which pCPU, to which VM (null: idle). */
    private record Switch(long at, int pcpu, String vm) {
    }

    private static VmSpec loop(String name, int pcpu) {
        return new VmSpec(name, 1, null, null, null, null, null, null, null, List.of(pcpu), null,
                new WorkloadSpec("cpu-loop", Map.of("workSeconds", 0)));
    }

    private static VmSpec idle(String name, int pcpu) {
        return new VmSpec(name, 1, null, null, null, null, null, null, null, List.of(pcpu), null,
                new WorkloadSpec("idle", Map.of()));
    }

    private static ExperimentSpec spec(int pcpus, String schedule, long majorFrameUs, List<VmSpec> vms) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("schedule", schedule);
        params.put("majorFrameUs", majorFrameUs);
        return new ExperimentSpec("arinc653", null, 11L, 0.1, ExperimentSpec.StopCondition.DURATION,
                new HostSpec(1, pcpus, 1, null, null, null, null), new SchedulerSpec(Arinc653Policy.NAME, params),
                null, vms, null, new TraceSpec(true, 1_000_000L));
    }

    private ResultDocument run(ExperimentSpec s, List<Switch> switches) {
        Validation v = engine.validate(s, Limits.defaults());
        assertThat(v.violations()).isEmpty();
        return engine.run(v.normalized(), Limits.defaults(), RunControl.tracingTo((t, p, e, vm, vcpu) -> {
            if (e.equals("switch")) {
                switches.add(new Switch(t, p, vm));
            }
        }));
    }

    @Test
    void eachVcpuRunsOnlyInsideItsOwnMinorFramesAndTheTailIdles() {
        List<Switch> switches = new ArrayList<>();
        ResultDocument d = run(spec(1, "a:0:5000, b:0:3000", 10_000, List.of(loop("a", 0), loop("b", 0))),
                switches);
        long start = switches.get(0).at();
        assertThat(switches.get(0).vm()).isEqualTo("a");
        for (Switch s : switches) {
            long offset = (s.at() - start) % (10 * MS);
            String expected = offset == 0 ? "a" : offset == 5 * MS ? "b" : offset == 8 * MS ? null : "none";
            assertThat(s.vm()).as("switch at %d ns (offset %d in the major frame)", s.at(), offset)
                    .isEqualTo(expected);
        }
        assertThat(switches).filteredOn(s -> "a".equals(s.vm())).hasSizeGreaterThanOrEqualTo(9);
        assertThat(switches).filteredOn(s -> s.vm() == null).hasSizeGreaterThanOrEqualTo(9);
        long a = d.vms().get(0).vcpus().get(0).cpuNanos();
        long b = d.vms().get(1).vcpus().get(0).cpuNanos();
        assertThat((double) a / b).isCloseTo(5.0 / 3, org.assertj.core.data.Offset.offset(0.05));
        assertThat(d.policyStatistics().get("unallocatedNanos")).isBetween(18 * MS, 20 * MS);
        assertThat(d.policyStatistics().get("majorFrames")).isEqualTo(10);
        assertThat(d.policyStatistics().get("slackNanos")).isLessThan(MS);
    }

    @Test
    void aFrameWhoseVcpuSleepsIdlesAndCountsAsItsSlack() {
        List<Switch> switches = new ArrayList<>();
        ResultDocument d = run(spec(1, "a:0:5000,sleeper:0:5000", 0, List.of(loop("a", 0), idle("sleeper", 0))),
                switches);
        long sleeperSlack = d.vms().get(1).vcpus().get(0).policyStatistics().get("slackNanos");
        long sleeperRan = d.vms().get(1).vcpus().get(0).cpuNanos();
        assertThat(sleeperSlack).as("the sleeper's frames are mostly idle").isGreaterThan(40 * MS);
        assertThat(sleeperSlack + sleeperRan).isLessThanOrEqualTo(50 * MS + MS);
        assertThat(d.vms().get(0).vcpus().get(0).cpuNanos()).as("a never runs in the sleeper's frames")
                .isLessThanOrEqualTo(50 * MS + MS);
        assertThat(d.policyStatistics().get("unallocatedNanos")).isZero();
    }

    @Test
    void otherPcpusIdleWhileOneFrameRuns() {
        List<Switch> switches = new ArrayList<>();
        ResultDocument d = run(spec(2, "a:0:4000,b:0:4000", 0, List.of(loop("a", 0), loop("b", 1))), switches);
        long busy0 = d.pcpus().get(0).busyNanos();
        long busy1 = d.pcpus().get(1).busyNanos();
        assertThat(busy0 + busy1).as("one frame at a time: the host is busy at most one pCPU's worth")
                .isLessThanOrEqualTo(100 * MS + MS);
        assertThat(busy0).isGreaterThan(45 * MS);
        assertThat(busy1).isGreaterThan(45 * MS);
        assertThat(switches).filteredOn(s -> "b".equals(s.vm())).isNotEmpty().allMatch(s -> s.pcpu() == 1);
    }

    @Test
    void withoutAScheduleTheFirstVmsVcpusGetTenMillisecondsEach() {
        List<Switch> switches = new ArrayList<>();
        VmSpec dom0 = new VmSpec("dom0", 2, null, null, null, null, null, null, null, List.of(0, 0), null,
                new WorkloadSpec("cpu-loop", Map.of("workSeconds", 0)));
        ResultDocument d = run(spec(1, "", 0, List.of(dom0, loop("guest", 0))), switches);
        assertThat(d.vms().get(1).vcpus().get(0).cpuNanos()).as("a guest without a frame never runs").isZero();
        assertThat(d.vms().get(0).vcpus().get(0).cpuNanos()).isBetween(45 * MS, 55 * MS);
        assertThat(d.policyStatistics().get("majorFrames")).isEqualTo(5);
    }

    @Test
    void badSchedulesAreRefusedNamingTheField() {
        List<VmSpec> vms = List.of(loop("a", 0));
        assertThat(pointers(spec(1, "a:0", 0, vms))).containsExactly("/scheduler/params/schedule");
        assertThat(pointers(spec(1, "a:0:0", 0, vms))).containsExactly("/scheduler/params/schedule");
        assertThat(pointers(spec(1, "a:x:100", 0, vms))).containsExactly("/scheduler/params/schedule");
        assertThat(pointers(spec(1, "nobody:0:100", 0, vms))).containsExactly("/scheduler/params/schedule");
        assertThat(pointers(spec(1, "a:1:100", 0, vms))).containsExactly("/scheduler/params/schedule");
        assertThat(pointers(spec(1, "a:0:6000,a:0:6000", 10_000, vms)))
                .containsExactly("/scheduler/params/majorFrameUs");
        assertThat(pointers(spec(1, "a:0:100,".repeat(64) + "a:0:100", 0, vms)))
                .containsExactly("/scheduler/params/schedule");
        assertThat(pointers(spec(1, "a:0:100", 10_000_001, vms))).containsExactly("/scheduler/params/majorFrameUs");
        assertThat(pointers(spec(1, "a:0:5000", 10_000, vms))).isEmpty();
    }

    private List<String> pointers(ExperimentSpec s) {
        return engine.validate(s, Limits.defaults()).violations().stream().map(v -> v.pointer()).toList();
    }
}
