package io.schedlab.engine.semantics;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.TimelineAction;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Spec builders and a runner for the end-to-end scheduler semantics tests. */
final class SemanticsSpecs {
    private static final Engine ENGINE = Engine.standard().withSelfCheck();

    private SemanticsSpecs() {
    }

    static HostSpec host(int sockets, int cores, int threads) {
        return new HostSpec(sockets, cores, threads, null, null, null, null);
    }

    static SchedulerSpec sched(String policy, Map<String, Object> params) {
        return new SchedulerSpec(policy, params);
    }

    static VmSpec loop(String name, int vcpus, Integer weight, Integer cap, List<Integer> placement, double work) {
        return new VmSpec(name, vcpus, weight, cap, null, null, null, null, null, placement, null,
                new WorkloadSpec("cpu-loop", Map.of("threads", vcpus, "workSeconds", work)));
    }

    static VmSpec vm(String name, int vcpus, List<Integer> soft, List<Integer> placement, String workload,
            Map<String, Object> params) {
        return new VmSpec(name, vcpus, null, null, null, soft, null, null, null, placement, null,
                new WorkloadSpec(workload, params));
    }

    static VmSpec dom0(int vcpus) {
        List<Integer> placement = new ArrayList<>();
        for (int i = 0; i < vcpus; i++) {
            placement.add(i);
        }
        return vm("dom0", vcpus, null, placement, "idle", Map.of());
    }

    static TimelineAction pin(double at, String vm, int vcpu, int pcpu) {
        return new TimelineAction(at, TimelineAction.Kind.PIN, vm, vcpu, List.of(pcpu), null, null, null);
    }

    static ExperimentSpec spec(HostSpec host, SchedulerSpec sched, double duration, ExperimentSpec.StopCondition stop,
            List<VmSpec> vms, List<TimelineAction> timeline) {
        return new ExperimentSpec("semantics", null, 11L, duration, stop, host, sched, null, vms, timeline, null);
    }

    static ResultDocument run(ExperimentSpec spec) {
        Validation v = ENGINE.validate(spec, Limits.defaults());
        if (!v.valid()) {
            throw new AssertionError("invalid spec: " + v.violations());
        }
        return ENGINE.run(v.normalized(), Limits.defaults(), RunControl.NONE);
    }

    static Validation validate(ExperimentSpec spec) {
        return ENGINE.validate(spec, Limits.defaults());
    }

    static VmResult vmResult(ResultDocument doc, String name) {
        return doc.vms().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
    }
}
