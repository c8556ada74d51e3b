package io.schedlab.engine;

import io.schedlab.engine.model.Topology;
import io.schedlab.engine.sim.TopologyBuilder;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.TimelineAction;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;

/** Small builders for experiment specs in tests. */
public final class TestSpecs {
    private TestSpecs() {
    }

    public static HostSpec host(int sockets, int cores, int threads) {
        return new HostSpec(sockets, cores, threads, null, null, null, null);
    }

    /** The topology the engine builds for a {@code sockets x cores x threads} host with the default NUMA layout. */
    public static Topology topology(int sockets, int cores, int threads) {
        Validation v = Engine.standard().validate(spec(host(sockets, cores, threads), "static", 1.0,
                List.of(cpuLoop("vm", 0, 1.0)), List.of()), Limits.defaults());
        return TopologyBuilder.build(v.normalized().host());
    }

    public static VmSpec vm(String name, int vcpus, List<Integer> placement, String workload,
            Map<String, Object> params) {
        return new VmSpec(name, vcpus, null, null, null, null, null, null, null, placement, null,
                new WorkloadSpec(workload, params));
    }

    public static VmSpec cpuLoop(String name, int pcpu, double workSeconds) {
        return vm(name, 1, List.of(pcpu), "cpu-loop", Map.of("workSeconds", workSeconds));
    }

    public static VmSpec dom0(int vcpus) {
        List<Integer> placement = new java.util.ArrayList<>();
        for (int i = 0; i < vcpus; i++) {
            placement.add(i);
        }
        return vm("dom0", vcpus, placement, "idle", Map.of());
    }

    public static TimelineAction pin(double at, String vm, int vcpu, int... pcpus) {
        List<Integer> cpus = new java.util.ArrayList<>();
        for (int p : pcpus) {
            cpus.add(p);
        }
        return new TimelineAction(at, TimelineAction.Kind.PIN, vm, vcpu, cpus, null, null, null);
    }

    public static ExperimentSpec spec(HostSpec host, String policy, double duration, List<VmSpec> vms,
            List<TimelineAction> timeline) {
        return new ExperimentSpec("test", null, 7L, duration, ExperimentSpec.StopCondition.ALL_COMPLETE, host,
                new SchedulerSpec(policy, null), null, vms, timeline, null);
    }
}
