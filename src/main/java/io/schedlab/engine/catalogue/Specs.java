package io.schedlab.engine.catalogue;

import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.NumaNodeSpec;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.TimelineAction;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/** Small builders for raw experiment specs (null = engine default), so scenario definitions read like the set-ups. */
final class Specs {
    private Specs() {
    }

    static HostSpec host(int sockets, int cores, int threads) {
        return new HostSpec(sockets, cores, threads, null, null, null, null);
    }

    /** One NUMA node per socket with {@code memoryMb} each; bandwidth and distances are the engine's defaults. */
    static HostSpec numaHost(int sockets, int cores, int threads, int memoryMbPerNode) {
        List<NumaNodeSpec> nodes = new ArrayList<>();
        for (int s = 0; s < sockets; s++) {
            nodes.add(new NumaNodeSpec(List.of(s), memoryMbPerNode, null));
        }
        return new HostSpec(sockets, cores, threads, nodes, null, null, null);
    }

    static SchedulerSpec policy(String name, Object... keyValues) {
        return new SchedulerSpec(name, map(keyValues));
    }

    static WorkloadSpec workload(String type, Object... keyValues) {
        return new WorkloadSpec(type, map(keyValues));
    }

    static Map<String, Object> map(Object... keyValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put((String) keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    static List<Integer> range(int fromInclusive, int toExclusive) {
        return IntStream.range(fromInclusive, toExclusive).boxed().toList();
    }

    static VmSpec vm(String name, int vcpus, WorkloadSpec workload) {
        return new VmSpec(name, vcpus, null, null, null, null, null, null, null, null, null, workload);
    }

    static VmSpec withPlacement(VmSpec v, List<Integer> placement) {
        return new VmSpec(v.name(), v.vcpus(), v.weight(), v.cap(), v.hardAffinity(), v.softAffinity(),
                v.vcpuAffinity(), v.memoryMb(), v.numaNode(), placement, v.startAtSeconds(), v.workload());
    }

    static VmSpec withHard(VmSpec v, List<Integer> hard) {
        return new VmSpec(v.name(), v.vcpus(), v.weight(), v.cap(), hard, v.softAffinity(), v.vcpuAffinity(),
                v.memoryMb(), v.numaNode(), v.placement(), v.startAtSeconds(), v.workload());
    }

    static VmSpec withSoft(VmSpec v, List<Integer> soft) {
        return new VmSpec(v.name(), v.vcpus(), v.weight(), v.cap(), v.hardAffinity(), soft, v.vcpuAffinity(),
                v.memoryMb(), v.numaNode(), v.placement(), v.startAtSeconds(), v.workload());
    }

    static VmSpec startingAt(VmSpec v, double startAtSeconds) {
        return new VmSpec(v.name(), v.vcpus(), v.weight(), v.cap(), v.hardAffinity(), v.softAffinity(),
                v.vcpuAffinity(), v.memoryMb(), v.numaNode(), v.placement(), startAtSeconds, v.workload());
    }

    static VmSpec withMemory(VmSpec v, int memoryMb, int numaNode) {
        return new VmSpec(v.name(), v.vcpus(), v.weight(), v.cap(), v.hardAffinity(), v.softAffinity(),
                v.vcpuAffinity(), memoryMb, numaNode, v.placement(), v.startAtSeconds(), v.workload());
    }

    static VmSpec withMemoryPlacement(VmSpec v, String memoryPlacement) {
        return new VmSpec(v.name(), v.vcpus(), v.weight(), v.cap(), v.hardAffinity(), v.softAffinity(),
                v.vcpuAffinity(), v.memoryMb(), v.numaNode(), v.placement(), v.startAtSeconds(), v.workload(),
                v.schedParams(), v.vcpuSchedParams(), v.placementRule(), memoryPlacement);
    }

    static ExperimentSpec experiment(String name, long seed, ExperimentSpec.StopCondition stop, double durationSeconds,
            HostSpec host, SchedulerSpec scheduler, List<VmSpec> vms, List<TimelineAction> timeline) {
        return new ExperimentSpec(name, Map.of("source", "built-in scenario"), seed, durationSeconds, stop, host,
                scheduler, null, vms, timeline, null);
    }

    static ExperimentSpec withSeed(ExperimentSpec s, long seed) {
        return new ExperimentSpec(s.name(), s.labels(), seed, s.durationSeconds(), s.stopWhen(), s.host(),
                s.scheduler(), s.costs(), s.vms(), s.timeline(), s.trace());
    }

    /** The same spec with the event trace on (bounded by {@code maxEvents}); the runner audits traced runs. */
    static ExperimentSpec withTrace(ExperimentSpec s, long maxEvents) {
        return new ExperimentSpec(s.name(), s.labels(), s.seed(), s.durationSeconds(), s.stopWhen(), s.host(),
                s.scheduler(), s.costs(), s.vms(), s.timeline(), new io.schedlab.engine.spec.TraceSpec(true, maxEvents));
    }

    static TimelineAction pin(double atSeconds, String vm, Integer vcpu, List<Integer> pcpus) {
        return new TimelineAction(atSeconds, TimelineAction.Kind.PIN, vm, vcpu, pcpus, null, null, null);
    }

    /** A number of seconds as the set-up text shows it: no ".0" on whole numbers. */
    static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
