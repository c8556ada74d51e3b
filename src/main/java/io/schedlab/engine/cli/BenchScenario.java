package io.schedlab.engine.cli;

import io.schedlab.engine.Engine;
import io.schedlab.engine.builtins.BuiltIns;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fixed benchmark scenario: 2 sockets x 16 cores x 2 threads (64 pCPUs), 32 VMs x 8
 * vCPUs (256) of mixed workloads, run for a given simulated time. A workload type that is not
 * registered (or whose bench parameters do not validate) is replaced by an endless cpu-loop, so the
 * scenario always runs; {@link #mix} tells what was used.
 */
public final class BenchScenario {
    private BenchScenario() {
    }

    /** VM groups: count, workload type, parameters. */
    private record Group(int vms, String type, Map<String, Object> params) {
    }

    private static List<Group> groups() {
        return List.of(
                new Group(8, "cpu-loop", Map.of("threads", 8, "workSeconds", 0.0)),
                new Group(8, "idle", Map.of("threads", 8, "wakeIntervalMs", 10, "burstUs", 500)),
                new Group(6, "parallel-build", Map.of("parallelism", 8, "jobs", 100_000)),
                new Group(4, "memory-bandwidth", Map.of("threads", 8)),
                new Group(4, "interactive", Map.of("threads", 8)),
                new Group(2, "spinlock", Map.of("threads", 8, "outsideUs", 500, "insideUs", 20)));
    }

    /** The standard registry, plus credit when this build has it but BuiltIns does not list it yet. */
    public static Registry registry() {
        Registry registry = BuiltIns.registry();
        if (registry.policy("credit").isEmpty()) {
            registry.register(io.schedlab.engine.policies.credit.CreditPolicy.descriptor());
        }
        return registry;
    }

    public static ExperimentSpec build(Registry registry, String policy, double seconds) {
        Engine probe = new Engine(registry);
        List<VmSpec> vms = new ArrayList<>();
        for (Group g : groups()) {
            WorkloadSpec w = usable(probe, policy, g) ? new WorkloadSpec(g.type(), g.params())
                    : new WorkloadSpec("cpu-loop", Map.of("threads", 8, "workSeconds", 0.0));
            for (int i = 0; i < g.vms(); i++) {
                vms.add(new VmSpec(g.type() + "-" + i, 8, null, null, null, null, null, 2048, null, null, null, w));
            }
        }
        return new ExperimentSpec("bench-64pcpu-256vcpu", null, 1L, seconds, ExperimentSpec.StopCondition.DURATION,
                new HostSpec(2, 16, 2, null, null, null, null), new SchedulerSpec(policy, null), null, vms, null, null);
    }

    /** Workload type -> VM count actually used by {@link #build} with this registry. */
    public static Map<String, Integer> mix(Registry registry, String policy) {
        Engine probe = new Engine(registry);
        Map<String, Integer> mix = new LinkedHashMap<>();
        for (Group g : groups()) {
            mix.merge(usable(probe, policy, g) ? g.type() : "cpu-loop", g.vms(), Integer::sum);
        }
        return mix;
    }

    private static boolean usable(Engine probe, String policy, Group g) {
        if (probe.registry().workload(g.type()).isEmpty()) {
            return false;
        }
        ExperimentSpec one = new ExperimentSpec(null, null, null, 1.0, null, new HostSpec(1, 1, 1, null, null, null,
                null), new SchedulerSpec(policy, null), null, List.of(new VmSpec("probe", 1, null, null, null, null,
                null, null, null, null, null, new WorkloadSpec(g.type(), g.params()))), null, null);
        return probe.validate(one, Limits.defaults()).valid();
    }
}
