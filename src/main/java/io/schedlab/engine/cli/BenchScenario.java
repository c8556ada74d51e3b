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
 * vCPUs (256) of mixed workloads, run for a given simulated time. Scaled to a larger host
 * ({@link #build(Registry, String, double, int)}), it keeps the socket (16 cores x 2 threads, one NUMA
 * node) and the load per pCPU: 1,024 pCPUs are 32 sockets and 512 VMs (4,096 vCPUs). A workload type
 * that is not registered (or whose bench parameters do not validate) is replaced by an endless
 * cpu-loop, so the scenario always runs; {@link #mix} tells what was used.
 */
public final class BenchScenario {
    /** pCPUs of the standard scenario; a scaled one has a multiple of it. */
    public static final int BASE_PCPUS = 64;
    /** Cores per socket and threads per core of every bench socket. */
    private static final int CORES_PER_SOCKET = 16;
    private static final int THREADS_PER_CORE = 2;

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

    /**
     * Cost overrides of the host-scaling comparison: no lock hold grows with the pCPUs sharing a lock or the
     * queue entries walked under it. With the defaults, RTDS's one global run queue on 1,024 pCPUs (over 3,000
     * queued vCPUs at 20 ns an entry walked) holds its lock longer than the pCPUs ask for it, so the run is
     * all lock wait and few events, and events per CPU-second would compare two different simulations.
     */
    public static final Map<String, Object> UNCONTENDED_LOCKS =
            Map.of("lockHoldPerSharerNanos", 0, "lockPerEntryNanos", 0, "lockBaseNanos", 0);

    /** The standard scenario: 64 pCPUs, 32 VMs, default costs. */
    public static ExperimentSpec build(Registry registry, String policy, double seconds) {
        return build(registry, policy, seconds, BASE_PCPUS, null);
    }

    /**
     * The scenario on {@code pcpus} pCPUs (a multiple of {@link #BASE_PCPUS}): pcpus / 32 sockets of 16 cores
     * x 2 threads and every VM group pcpus / 64 times as large, so the load per pCPU is the standard one;
     * {@code costs} as the spec's {@code costs} (null: the defaults).
     */
    public static ExperimentSpec build(Registry registry, String policy, double seconds, int pcpus,
            Map<String, Object> costs) {
        if (pcpus < BASE_PCPUS || pcpus % BASE_PCPUS != 0) {
            throw new IllegalArgumentException("bench pCPUs must be a multiple of " + BASE_PCPUS + ", got " + pcpus);
        }
        int factor = pcpus / BASE_PCPUS;
        Engine probe = new Engine(registry);
        List<VmSpec> vms = new ArrayList<>();
        for (Group g : groups()) {
            WorkloadSpec w = usable(probe, policy, g) ? new WorkloadSpec(g.type(), g.params())
                    : new WorkloadSpec("cpu-loop", Map.of("threads", 8, "workSeconds", 0.0));
            for (int i = 0; i < g.vms() * factor; i++) {
                vms.add(new VmSpec(g.type() + "-" + i, 8, null, null, null, null, null, 2048, null, null, null, w));
            }
        }
        int sockets = pcpus / (CORES_PER_SOCKET * THREADS_PER_CORE);
        return new ExperimentSpec("bench-" + pcpus + "pcpu-" + vms.size() * 8 + "vcpu", null, 1L, seconds,
                ExperimentSpec.StopCondition.DURATION,
                new HostSpec(sockets, CORES_PER_SOCKET, THREADS_PER_CORE, null, null, null, null),
                new SchedulerSpec(policy, null), costs, vms, null, null);
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
