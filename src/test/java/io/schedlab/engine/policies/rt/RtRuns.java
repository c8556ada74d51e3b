package io.schedlab.engine.policies.rt;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.TimelineAction;
import io.schedlab.engine.spec.VcpuSchedParamsSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Real-simulator runs for the real-time policy tests: endless loops with per-vCPU server parameters. */
final class RtRuns {
    static final Engine ENGINE = Engine.standard().withSelfCheck();

    /** One traced switch: time, pCPU, vCPU uid in spec order (-1 idle). */
    record Switch(long time, int pcpu, int vcpu) {
    }

    private RtRuns() {
    }

    /** A VM of {@code vcpus} endless loops, every vCPU with period/budget (us) and extratime. */
    static VmSpec loops(String name, int vcpus, long periodUs, long budgetUs, boolean extratime) {
        return new VmSpec(name, vcpus, null, null, null, null, null, null, null, null, null,
                new WorkloadSpec("cpu-loop", Map.of("threads", vcpus, "workSeconds", 0)),
                Map.of("periodUs", periodUs, "budgetUs", budgetUs, "extratime", extratime), null);
    }

    /** A one-vCPU VM of one endless loop with its own server. */
    static VmSpec loop(String name, long periodUs, long budgetUs, boolean extratime) {
        return new VmSpec(name, 1, null, null, null, null, null, null, null, null, null,
                new WorkloadSpec("cpu-loop", Map.of("threads", 1, "workSeconds", 0)), null,
                List.of(new VcpuSchedParamsSpec(0, Map.of("periodUs", periodUs, "budgetUs", budgetUs,
                        "extratime", extratime))));
    }

    static ExperimentSpec spec(String policy, Map<String, Object> params, int pcpus, double seconds, List<VmSpec> vms,
            List<TimelineAction> timeline) {
        return new ExperimentSpec("rt", null, 3L, seconds, ExperimentSpec.StopCondition.DURATION,
                new HostSpec(1, pcpus, 1, null, null, null, null), new SchedulerSpec(policy, params), null, vms,
                timeline, null);
    }

    static ResultDocument run(ExperimentSpec raw) {
        Validation v = ENGINE.validate(raw, Limits.defaults());
        assertThat(v.violations()).isEmpty();
        return ENGINE.run(v.normalized(), Limits.defaults(), RunControl.NONE);
    }

    /** Runs with the trace on and returns its switches; vCPU numbers count the VMs' vCPUs in spec order. */
    static List<Switch> switches(ExperimentSpec raw) {
        ExperimentSpec traced = new ExperimentSpec(raw.name(), raw.labels(), raw.seed(), raw.durationSeconds(),
                raw.stopWhen(), raw.host(), raw.scheduler(), raw.costs(), raw.vms(), raw.timeline(),
                new io.schedlab.engine.spec.TraceSpec(true, 1_000_000L));
        Validation v = ENGINE.validate(traced, Limits.defaults());
        assertThat(v.violations()).isEmpty();
        List<String> names = raw.vms().stream().map(VmSpec::name).toList();
        List<Integer> firstUid = new ArrayList<>();
        int uid = 0;
        for (VmSpec vm : raw.vms()) {
            firstUid.add(uid);
            uid += vm.vcpus();
        }
        List<Switch> out = new ArrayList<>();
        ENGINE.run(v.normalized(), Limits.defaults(), RunControl.tracingTo((t, p, e, vm, vc) -> {
            if ("switch".equals(e)) {
                out.add(new Switch(t, p, vm == null ? -1 : firstUid.get(names.indexOf(vm)) + vc));
            }
        }));
        return out;
    }
}
